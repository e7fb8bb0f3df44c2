import Foundation

// Deleting for privacy (purge, opt-out, denied consent): what is deleted is overwritten on disk.
extension EventStore {
    /// Deletes every event (with a `boundary`, every event whose id precedes it: ids are
    /// time-ordered) and the delivered history, sets the counters to what is left and compacts
    /// the file; unless `keepingMetadata`, also deletes the metadata (identifiers, session,
    /// privacy state) and the eviction count. Deleted content is overwritten (``overwritingDeleted(_:_:)``) and
    /// the write-ahead log emptied (``truncateLog(_:)``) before this returns, so no deleted
    /// payload stays readable in the file or its log.
    ///
    /// Keys starting with `_` are the store's own bookkeeping (such as the ingest writer's
    /// journal position, ``IngestWriter/positionKey``) and are kept, so that a restart does not
    /// replay deleted events from the journal.
    func erase(keepingMetadata: Bool, before boundary: UUID? = nil) throws {
        guard !isReadOnly else { throw readOnlyError }
        try withDatabase { database, state in
            var next = StoreCounts()
            if keepingMetadata { next.evicted = state.counters.evicted }
            let metadata = keepingMetadata ? "" : "; DELETE FROM meta WHERE substr(key, 1, 1) <> '_'"
            try overwritingDeleted(database) {
                try database.transaction {
                    if let boundary {
                        let delete = try database.prepare("DELETE FROM events WHERE id < ?")
                        try delete.bind(boundary, at: 1)
                        while try delete.step() {}
                        try database.execute("DELETE FROM delivered" + metadata)
                        next = try remainingCounts(database, evicted: next.evicted)
                    } else {
                        try database.execute("DELETE FROM events; DELETE FROM delivered; DELETE FROM contexts" + metadata)
                    }
                    try writeCounters(next, database)
                }
                state.counters = next
                state.contextCache = [:]
                state.inFlight = [:]
                state.recentIDs.removeAll(keepingCapacity: true)
                state.olderIDs = []
                state.pendingFloor = 0
                try database.execute("VACUUM")
            }
            try truncateLog(database)
        }
    }

    /// The counts of the rows left in `events` (one scan), with `evicted` kept.
    private func remainingCounts(_ database: SQLiteDatabase, evicted: Int) throws -> StoreCounts {
        var counts = StoreCounts(evicted: evicted)
        let select = try database.prepare("SELECT status, count(*), total(size) FROM events GROUP BY status")
        while try select.step() {
            let (count, bytes) = (select.int(1), Int(select.double(2)))
            counts.bytes += bytes
            switch EventStoreSchema.status(select.int64(0)) {
            case .pending, .delivered: counts.pending += count
            case .inFlight: counts.inFlight += count
            case .rejected: counts.rejected += count
            case .held: counts.held += count
            }
        }
        return counts
    }

    /// Deletes every event, the delivered history and all metadata (identifiers included) and
    /// resets the counters: ``erase(keepingMetadata:)`` with nothing kept.
    func purge() throws { try erase(keepingMetadata: false) }

    /// Runs `body` with SQLite's `secure_delete` on, so that the content it deletes, and every
    /// page it frees, is overwritten with zeros; then back to `FAST` (the ingest path's setting,
    /// which overwrites only when it costs no extra I/O).
    func overwritingDeleted<Value>(_ database: SQLiteDatabase, _ body: () throws -> Value) throws -> Value {
        try database.execute("PRAGMA secure_delete = ON")
        defer { try? database.execute("PRAGMA secure_delete = FAST") }
        return try body()
    }

    /// Copies the write-ahead log into the file and truncates it to nothing, so that no earlier
    /// version of a page (with content since deleted) stays in `-wal`. A reader in another
    /// process (the monitor) can hold the log: retried for up to a second.
    /// - Returns: whether the log was emptied.
    @discardableResult
    func truncateLog(_ database: SQLiteDatabase) throws -> Bool {
        for _ in 0..<50 {
            // The first column says whether the checkpoint was blocked.
            if try database.scalarInt("PRAGMA wal_checkpoint(TRUNCATE)") == 0 { return true }
            usleep(20_000)
        }
        return false
    }
}
