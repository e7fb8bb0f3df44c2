import Tracking

/// Adds fields to every event's context: implement it for context of your own (an A/B test
/// bucket, the current screen).
///
/// Providers run inside `ContextHydrator` after the built-in fields, so a provider may
/// override one. They are called on the sender's thread and must be quick and thread-safe.
public protocol ContextProvider: Sendable {
    /// The fields to add for `event`.
    func context(for event: TrackedEvent) -> UserData
}
