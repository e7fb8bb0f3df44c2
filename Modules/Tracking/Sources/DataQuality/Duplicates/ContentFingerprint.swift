/// The 128-bit ``ContentHash`` of an event's content: what the duplicate memory keeps of each
/// remembered content, in place of the content itself.
struct ContentFingerprint: Hashable, Sendable {
    /// The first lane: the key contents are filed under.
    let low: UInt64
    /// The second lane.
    let high: UInt64
}
