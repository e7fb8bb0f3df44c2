import Foundation

/// One delivery attempt as a ``DeliveryWorker`` reports it to its observer: which events, their
/// attempt numbers, and what was decided. The timeline of each event is built from these.
struct DeliveryAttempt: Sendable, Equatable {
    /// An event of the attempt and the number of this attempt for it (1 for the first).
    struct Entry: Sendable, Equatable {
        /// The event id.
        var id: UUID
        /// The attempt number.
        var number: Int
    }

    /// The destination's name.
    var destination: String
    /// The events the decision applies to.
    var events: [Entry]
    /// What follows for them.
    var decision: RetryDecision
    /// The HTTP status, when a response arrived.
    var statusCode: Int?
    /// When its request started; `nil` for events settled without one.
    var requestStartedAt: Date?
    /// When the attempt was settled.
    var at: Date

    /// The event ids.
    var ids: [UUID] { events.map(\.id) }

    /// The event ids grouped by attempt number, numbers in first-seen order; one group, built
    /// without hashing, when every event shares one number (the usual case).
    var idsByNumber: [(number: Int, ids: [UUID])] {
        guard let first = events.first?.number else { return [] }
        if events.allSatisfy({ $0.number == first }) { return [(first, ids)] }
        var groups: [(number: Int, ids: [UUID])] = []
        for entry in events {
            if let index = groups.firstIndex(where: { $0.number == entry.number }) {
                groups[index].ids.append(entry.id)
            } else {
                groups.append((entry.number, [entry.id]))
            }
        }
        return groups
    }
}
