import Foundation
import Tracking

// Housekeeping: rejected events, metadata, checkpoints, closing (purge: EventStore+Erasing).
extension EventStore {
    /// Deletes every rejected event.
    /// - Returns: how many were deleted.
    @discardableResult
    func deleteRejected() throws -> Int {
        try write { database, counts in
            let totals = try database.cached(EventStoreSchema.rejectedTotals)
            guard try totals.step() else { return 0 }
            let bytes = Int(totals.double(1))
            totals.reset()
            let delete = try database.cached(EventStoreSchema.deleteRejected)
            try delete.step()
            let deleted = database.changes
            counts.rejected -= deleted
            counts.bytes -= bytes
            return deleted
        }
    }

    /// Returns every rejected event to pending, due now, with its attempts reset to 0 (its last
    /// error is kept for the monitor), for when what made the collector refuse it is fixed.
    /// Scans the store once; the pending and rejected counts move together in one transaction.
    /// - Returns: how many were requeued.
    @discardableResult
    func requeueRejected() throws -> Int {
        try write { database, counts, state in
            guard counts.rejected > 0 else { return 0 }
            let update = try database.cached(EventStoreSchema.requeueRejected)
            var requeued = 0
            var lowest = Int64.max
            while try update.step() {
                requeued += 1
                lowest = min(lowest, update.int64(0))
            }
            update.reset()
            counts.rejected -= requeued
            counts.pending += requeued
            if requeued > 0 { state.pendingFloor = min(state.pendingFloor, lowest) }
            return requeued
        }
    }

    /// The value stored under `key` in the `meta` table (installation id and the like).
    func metadata(_ key: String) throws -> String? {
        try withDatabase { database in try readMetadata(key, database) }
    }

    func readMetadata(_ key: String, _ database: SQLiteDatabase) throws -> String? {
        let select = try database.cached(EventStoreSchema.readMeta)
        try select.bind(key, at: 1)
        defer { select.reset() }
        return try select.step() ? select.string(0) : nil
    }

    /// Stores `value` under `key` in the `meta` table; `nil` removes the key.
    func setMetadata(_ key: String, _ value: String?) throws {
        guard !isReadOnly else { throw readOnlyError }
        try withDatabase { database in
            try setMetadata(key, value, database)
        }
    }

    func setMetadata(_ key: String, _ value: String?, _ database: SQLiteDatabase) throws {
        let statement = try database.cached(value == nil ? EventStoreSchema.deleteMeta : EventStoreSchema.writeMeta)
        try statement.bind(key, at: 1)
        if let value { try statement.bind(value, at: 2) }
        try statement.step()
    }

    /// Copies the write-ahead log into the database file and truncates the log.
    func checkpoint() throws {
        guard !isReadOnly else { throw readOnlyError }
        try withDatabase { database in _ = try database.scalarInt("PRAGMA wal_checkpoint(TRUNCATE)") }
    }

    /// The bytes the store occupies on disk: the database file plus its write-ahead log.
    var fileBytes: Int {
        ["", "-wal"].reduce(0) { total, suffix in
            let attributes = try? FileManager.default.attributesOfItem(atPath: path + suffix)
            return total + ((attributes?[.size] as? NSNumber)?.intValue ?? 0)
        }
    }

    /// Closes the store; later calls throw ``StoreError/closed(path:)``.
    func close() {
        state.withLock { state in
            state.closedByUser = true
            state.database?.close()
            state.database = nil
            state.writerLock?.release()
            state.writerLock = nil
        }
    }

    /// Limits the file to `pages` pages, so writes beyond fail as if the disk were full (tests).
    func limitPages(_ pages: Int) throws {
        try withDatabase { database in try database.setMaxPageCount(pages) }
    }
}
