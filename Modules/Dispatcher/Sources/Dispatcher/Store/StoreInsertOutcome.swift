import Foundation

/// What ``EventStore/insert(_:)`` did with a group of events.
public struct InsertOutcome: Sendable, Equatable {
    /// Events written.
    public var inserted: Int
    /// Ids that were already in the store: those events were ignored.
    public var duplicates: [UUID]
    /// Ids of the oldest pending events evicted to respect the ``StoreLimits`` (possibly some of
    /// the events just inserted, when the group alone exceeds the limits).
    public var evicted: [UUID]

    /// Creates an outcome.
    public init(inserted: Int = 0, duplicates: [UUID] = [], evicted: [UUID] = []) {
        self.inserted = inserted
        self.duplicates = duplicates
        self.evicted = evicted
    }
}
