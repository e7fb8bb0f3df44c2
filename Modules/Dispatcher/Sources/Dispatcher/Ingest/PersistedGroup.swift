import Foundation

/// What the ingest writer tells its owner about a group of events it committed (see
/// ``IngestWriter``'s `onPersisted`): the ids, in order, and how many carry flags. The events
/// themselves are not kept: they were read borrowed from the journal, which is then discarded.
struct PersistedGroup: Sendable, Equatable {
    /// The ids of the group's events, in order (duplicates the store ignored included).
    var ids: [UUID]
    /// How many of the events carry at least one flag.
    var flagged: Int

    /// Collects the ids and flag count of `events`.
    init(_ events: [BorrowedEvent]) {
        ids = events.map(\.id)
        flagged = events.reduce(0) { $0 + ($1.isFlagged ? 1 : 0) }
    }
}
