import Foundation

extension IngestWriter {
    /// What the callers and the writer thread share, in ``IngestWriter/state``. Waiters wait on it
    /// for `committed` (a drain) or `finished` (``IngestWriter/close(timeout:)``).
    struct State: Sendable {
        /// How far the store has the journal's records.
        var committed: JournalPosition
        /// Counters since start (``IngestWriter/statistics`` adds the journal's count).
        var stats = IngestStatistics()
        /// Asked to stop: the writer persists what is left, then finishes.
        var stopping = false
        /// The writer thread has ended.
        var finished = false
        /// Asked to stop at once, persisting nothing more (``IngestWriter/simulateCrash()``).
        var crashed = false
        /// The last error reported and when, to report a repeated one at most once a second.
        var lastReport: (text: String, time: Date)?
        /// When the files were last checked (``IngestWriter/checkFiles(force:)``), in ``CoarseClock`` seconds.
        var lastFileCheck: TimeInterval = 0
        /// How many times the writer woke from waiting with nothing to read (tests: idle costs nothing).
        var idleWakeUps = 0
    }

    /// Where the writer reads the journal next, and the group it read but has not committed yet.
    /// Owned by one thread at a time (`init`, then the writer thread), so it is in no lock.
    struct ReadCursor {
        /// The position after the last record committed or stepped over.
        var position: JournalPosition
        /// The group read but not committed yet (the store failed): retried as it is, borrowed
        /// from the journal's segments.
        var pending: EventJournal.BorrowedBatch?
    }
}
