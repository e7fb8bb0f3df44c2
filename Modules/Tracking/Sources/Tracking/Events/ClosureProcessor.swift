/// A processor made from a closure that returns the event to pass on, or `nil` to stop it.
///
/// Convenient for small stages and tests; the closure takes and returns a copy, so a stage on
/// the hot path conforms to ``EventProcessor`` itself instead.
public struct ClosureProcessor: EventProcessor {
    private let body: @Sendable (TrackedEvent) -> TrackedEvent?

    /// Creates a processor that runs `body`.
    public init(_ body: @escaping @Sendable (TrackedEvent) -> TrackedEvent?) { self.body = body }

    /// Replaces `event` with what the closure returns; `false` when it returns `nil`.
    public func process(_ event: inout TrackedEvent) -> Bool {
        guard let next = body(event) else { return false }
        event = next
        return true
    }
}
