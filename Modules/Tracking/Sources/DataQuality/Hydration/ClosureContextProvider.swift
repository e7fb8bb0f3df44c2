import Tracking

/// A provider made from a closure.
public struct ClosureContextProvider: ContextProvider {
    private let body: @Sendable (TrackedEvent) -> UserData

    /// Creates a provider that runs `body`.
    public init(_ body: @escaping @Sendable (TrackedEvent) -> UserData) { self.body = body }

    /// Runs the closure.
    public func context(for event: TrackedEvent) -> UserData { body(event) }
}
