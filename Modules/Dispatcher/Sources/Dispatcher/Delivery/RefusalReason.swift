/// Why the Dispatcher refused an event at ``Dispatcher/send(_:)``: it is then neither in the
/// journal nor waiting in memory. Every refusal is counted by reason in
/// ``DispatcherCounters/refusals`` and reported through the diagnostics.
public enum RefusalReason: String, Sendable, CaseIterable, CustomStringConvertible {
    /// The event is larger than a journal record can be (a segment's size).
    case tooLarge = "event too large"
    /// The Dispatcher was closed.
    case closed = "dispatcher closed"
    /// Neither the journal (its byte budget full, a full disk, an unwritable folder) nor the
    /// memory overflow (``BatchConfiguration/overflowQueueSize``) had room.
    case noRoom = "no room in the journal or in memory"

    /// The reason as a short phrase.
    public var description: String { rawValue }
}
