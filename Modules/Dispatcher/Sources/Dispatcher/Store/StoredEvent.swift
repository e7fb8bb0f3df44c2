import Foundation

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

/// One row of the store: an event and its delivery state.
public struct StoredEvent: Sendable, Equatable {
    /// The store's own sequence number, time-ordered: the order of delivery.
    public var sequence: Int64
    /// The event.
    public var event: EncodedEvent
    /// Its status.
    public var status: EventStatus
    /// Delivery attempts made so far.
    public var attempts: Int
    /// When it was first persisted.
    public var createdAt: Date
    /// The earliest time of its next delivery attempt, when pending after a failure.
    public var nextAttemptAt: Date?
    /// The last error or rejection reason.
    public var lastError: String?
    /// Whether the event was read from the journal beside the store, not from the store: it is
    /// durable and pending, and not yet written to SQLite (``sequence`` is 0, ``createdAt`` its
    /// timestamp).
    public var isInJournal: Bool

    /// Creates a row.
    public init(
        sequence: Int64, event: EncodedEvent, status: EventStatus, attempts: Int, createdAt: Date,
        nextAttemptAt: Date? = nil, lastError: String? = nil, isInJournal: Bool = false
    ) {
        self.sequence = sequence
        self.event = event
        self.status = status
        self.attempts = attempts
        self.createdAt = createdAt
        self.nextAttemptAt = nextAttemptAt
        self.lastError = lastError
        self.isInJournal = isInJournal
    }
}
