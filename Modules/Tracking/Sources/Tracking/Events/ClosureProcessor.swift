/// A processor made from a closure.
public struct ClosureProcessor: EventProcessor {
    private let body: @Sendable (TrackedEvent) -> TrackedEvent?

    /// Creates a processor that runs `body`.
    public init(_ body: @escaping @Sendable (TrackedEvent) -> TrackedEvent?) { self.body = body }

    /// Runs the closure.
    public func process(_ event: TrackedEvent) -> TrackedEvent? { body(event) }
}
