/// Where an event is in its life in the store.
public enum EventStatus: String, Sendable, Codable, CaseIterable {
    /// Persisted, waiting for delivery (or for its next retry).
    case pending
    /// Part of the batch currently being delivered.
    case inFlight = "in_flight"
    /// Refused by the destination or past its attempts or age: kept, counted, visible.
    case rejected
    /// Acknowledged by the destination: the row left the store, a copy stays in its bounded
    /// delivered history for the monitor.
    case delivered
    /// Held until consent is known (flagged `awaiting_consent`): never delivered or evicted until
    /// released or deleted.
    case held
}
