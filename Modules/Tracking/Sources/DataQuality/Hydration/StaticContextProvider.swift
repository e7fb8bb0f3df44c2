import Tracking

/// A provider that adds the same fields to every event.
struct StaticContextProvider: ContextProvider {
    /// The fields.
    public let fields: UserData

    /// Creates a provider that adds `fields`.
    public init(_ fields: UserData) { self.fields = fields }

    /// Returns ``fields``.
    public func context(for event: TrackedEvent) -> UserData { fields }
}
