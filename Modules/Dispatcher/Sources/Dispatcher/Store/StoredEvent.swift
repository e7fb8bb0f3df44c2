import Foundation
import Tracking

/// One row of the store: an event and its delivery state.
public struct StoredEvent: Sendable, Equatable {
    /// The store's own sequence number, time-ordered: the order of delivery.
    public var sequence: Int64
    /// The event, in the encoded form the store keeps.
    package var event: EncodedEvent
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
    package init(
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

    /// The event id, the delivery idempotency key.
    public var id: UUID { event.id }

    /// The bytes the event occupies in a payload, roughly: what ``Destination/maxBatchBytes`` counts.
    public var approximateSize: Int { event.approximateSize }

    /// The event as it was sent, decoded from the store's form (for a destination of your own).
    public func trackedEvent() throws -> TrackedEvent { try event.decoded() }
}
