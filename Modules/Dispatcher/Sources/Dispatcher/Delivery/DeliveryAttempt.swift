import Foundation

/// One delivery attempt as a ``DeliveryWorker`` reports it to its observer: which events, their
/// attempt numbers, and what was decided. The journey of each event is built from these.
public struct DeliveryAttempt: Sendable, Equatable {
    /// An event of the attempt and the number of this attempt for it (1 for the first).
    public struct Entry: Sendable, Equatable {
        /// The event id.
        public var id: UUID
        /// The attempt number.
        public var number: Int
    }

    /// The destination's name.
    public var destination: String
    /// The events the decision applies to.
    public var events: [Entry]
    /// What follows for them.
    public var decision: RetryDecision
    /// The HTTP status, when a response arrived.
    public var statusCode: Int?
    /// When the attempt was settled.
    public var at: Date

    /// The event ids.
    public var ids: [UUID] { events.map(\.id) }
}
