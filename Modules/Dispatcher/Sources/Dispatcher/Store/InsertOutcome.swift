import Foundation

/// What ``EventStore/insert(_:)`` did with a group of events.
struct InsertOutcome: Sendable, Equatable {
    /// Events written.
    var inserted: Int
    /// Ids that were already in the store: those events were ignored.
    var duplicates: [UUID]
    /// Ids of the oldest pending events evicted to respect the ``StoreLimits`` (possibly some of
    /// the events just inserted, when the group alone exceeds the limits).
    var evicted: [UUID]

    /// Creates an outcome.
    init(inserted: Int = 0, duplicates: [UUID] = [], evicted: [UUID] = []) {
        self.inserted = inserted
        self.duplicates = duplicates
        self.evicted = evicted
    }
}
