import Foundation

/// What the ingest writer tells about a group of events it committed (see ``IngestSink``): the
/// ids, in order, and how many carry flags. The events themselves are not kept: they were read
/// borrowed from the journal, which is then discarded.
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

    /// ``ids`` except `duplicates`, hashing nothing when there are none (the usual case).
    func ids(skipping duplicates: [UUID]) -> [UUID] {
        guard !duplicates.isEmpty else { return ids }
        let skipped = Set(duplicates)
        return ids.filter { !skipped.contains($0) }
    }
}
