import Tracking

/// Adds fields to every event's context: implement it for context of your own (an A/B test
/// bucket, the current screen).
///
/// Providers run inside ``ContextHydrator`` after the built-in fields, so a provider may
/// override one. They are called on the sender's thread and must be quick and thread-safe.
public protocol ContextProvider: Sendable {
    /// The fields to add for `event`.
    func context(for event: TrackedEvent) -> UserData
}

/// A provider that adds the same fields to every event.
public struct StaticContextProvider: ContextProvider {
    /// The fields.
    public let fields: UserData

    /// Creates a provider that adds `fields`.
    public init(_ fields: UserData) { self.fields = fields }

    /// Returns ``fields``.
    public func context(for event: TrackedEvent) -> UserData { fields }
}

/// A provider made from a closure.
public struct ClosureContextProvider: ContextProvider {
    private let body: @Sendable (TrackedEvent) -> UserData

    /// Creates a provider that runs `body`.
    public init(_ body: @escaping @Sendable (TrackedEvent) -> UserData) { self.body = body }

    /// Runs the closure.
    public func context(for event: TrackedEvent) -> UserData { body(event) }
}
