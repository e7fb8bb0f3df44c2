import Foundation
import Tracking

// The delivery queue: claiming batches and settling their events.
extension EventStore {
    /// Marks up to `limit` due pending events (oldest first, fitting `maxBytes` together, at
    /// least one) as in flight and returns them. Reads one page with `LIMIT`, never the store.
    func claimBatch(limit: Int, maxBytes: Int, now: Date) throws -> [StoredEvent] {
        guard limit > 0 else { return [] }
        let claim = try write { database, counts, state in
            try claimLocked(limit: limit, maxBytes: maxBytes, now: now, database, &counts, &state)
        }
        state.withLock { $0.recordClaimed(claim) }
        return claim.rows
    }

    /// Acknowledges `ids` (see ``acknowledge(_:deliveredAt:)``), then claims the next batch (see
    /// ``claimBatch(limit:maxBytes:now:)``), in one transaction: a delivery round commits once.
    func acknowledge(_ ids: [UUID], thenClaim limit: Int, maxBytes: Int, now: Date) throws -> [StoredEvent] {
        let keep = limits.deliveredHistory
        let deliveredAt = Self.milliseconds(Date())
        let claim = try write { database, counts, state in
            try acknowledgeLocked(ids, deliveredAt: deliveredAt, keeping: keep, database, &counts, state)
            return limit > 0 ? try claimLocked(limit: limit, maxBytes: maxBytes, now: now, database, &counts, &state, settled: Set(ids))
                : ClaimedRows(rows: [], sizes: [])
        }
        state.withLock { state in
            for id in ids { state.inFlight[id] = nil }
            state.recordClaimed(claim)
        }
        return claim.rows
    }

    /// Rows a claim marked in flight, with the size each counted for.
    struct ClaimedRows: Sendable {
        var rows: [StoredEvent]
        var sizes: [Int]
    }

    /// The claim's statements, in the caller's transaction; `settled` are ids in flight that the
    /// same transaction acknowledged already.
    private func claimLocked(limit: Int, maxBytes: Int, now: Date, _ database: SQLiteDatabase, _ counts: inout StoreCounts,
                             _ state: inout State, settled: Set<UUID> = []) throws -> ClaimedRows {
        let due = Self.milliseconds(now)
        guard counts.pending > 0 else { return ClaimedRows(rows: [], sizes: []) }
        let first = try database.cached(EventStoreSchema.firstPending)
        try first.bind(state.pendingFloor, at: 1)
        guard try first.step() else {
            first.reset()
            return ClaimedRows(rows: [], sizes: [])
        }
        state.pendingFloor = first.int64(0)
        first.reset()
        let select = try database.cached(EventStoreSchema.claim)
        try select.bind(state.pendingFloor, at: 1)
        try select.bind(due, at: 2)
        try select.bind(limit, at: 3)
        var batch: [StoredEvent] = []
        var sizes: [Int] = []
        var bytes = 0
        while try select.step() {
            // The row's stored size (what counted it in), not its size as read back as JSON.
            let size = select.int(15)
            if !batch.isEmpty, bytes + size > maxBytes { break }
            var row = try self.row(select, database, &state)
            row.status = .inFlight
            batch.append(row)
            sizes.append(size)
            bytes += size
        }
        select.reset()
        guard let low = batch.first?.sequence, let high = batch.last?.sequence else { return ClaimedRows(rows: [], sizes: []) }
        let mark = try database.cached(EventStoreSchema.markInFlight)
        try mark.bind(low, at: 1)
        try mark.bind(high, at: 2)
        try mark.bind(due, at: 3)
        try mark.step()
        let range = state.inFlight.filter { !settled.contains($0.key) }.values
            .reduce((low, high)) { (min($0.0, $1.sequence), max($0.1, $1.sequence)) }
        try setMetadata(EventStoreSchema.inFlightRangeKey, "\(range.0):\(range.1)", database)
        counts.pending -= batch.count
        counts.inFlight += batch.count
        return ClaimedRows(rows: batch, sizes: sizes)
    }

    /// Deletes acknowledged events, in one transaction, copying them into the delivered history
    /// (``StoreLimits/deliveredHistory``) in that same transaction. Unknown ids are ignored.
    func acknowledge(_ ids: [UUID]) throws {
        try acknowledge(ids, deliveredAt: Date())
    }

    /// Deletes acknowledged events like ``acknowledge(_:)``, recording `deliveredAt` in the history.
    /// - Parameters:
    ///   - ids: the acknowledged events.
    ///   - deliveredAt: the delivery time recorded in the history.
    func acknowledge(_ ids: [UUID], deliveredAt: Date) throws {
        guard !ids.isEmpty else { return } // no transaction for nothing
        let keep = limits.deliveredHistory
        let deliveredAt = Self.milliseconds(deliveredAt)
        try write { database, counts, state in
            try acknowledgeLocked(ids, deliveredAt: deliveredAt, keeping: keep, database, &counts, state)
        }
        state.withLock { state in for id in ids { state.inFlight[id] = nil } }
    }

    /// The acknowledgement's statements, in the caller's transaction (the in-flight map is the
    /// caller's to update once committed).
    private func acknowledgeLocked(_ ids: [UUID], deliveredAt: Int64, keeping keep: Int, _ database: SQLiteDatabase,
                                   _ counts: inout StoreCounts, _ state: State) throws {
        guard !ids.isEmpty else { return }
        let (claimed, others) = state.partition(ids)
        func settle(_ statement: SQLiteStatement) throws {
            while try statement.step() {
                counts.bytes -= statement.int(1)
                switch statement.int64(0) {
                case EventStoreSchema.inFlight: counts.inFlight -= 1
                case EventStoreSchema.rejected: counts.rejected -= 1
                case EventStoreSchema.held: counts.held -= 1
                default: counts.pending -= 1
                }
            }
        }
        var newestDelivered: Int64?
        let wholeRange = state.wholeInFlightRange(claimed)
        if let range = wholeRange {
            // The common case, a whole batch: two range statements instead of two per row.
            if keep > 0 {
                let copy = try database.cached(EventStoreSchema.copyDeliveredRange)
                try copy.bind(deliveredAt, at: 1)
                try copy.bind(range.lowerBound, at: 2)
                try copy.bind(range.upperBound, at: 3)
                try copy.step()
                if database.changes > 0 { newestDelivered = database.lastInsertRowID }
            }
            let delete = try database.cached(EventStoreSchema.acknowledgeRange)
            try delete.bind(range.lowerBound, at: 1)
            try delete.bind(range.upperBound, at: 2)
            while try delete.step() {
                counts.inFlight -= 1
                counts.bytes -= delete.int(0)
            }
            delete.reset()
        }
        let copy = keep > 0 ? try database.cached(EventStoreSchema.copyDelivered) : nil
        let delete = try database.cached(EventStoreSchema.acknowledge)
        for row in wholeRange == nil ? claimed : [] {
            if let copy {
                copy.rewind()
                try copy.bind(deliveredAt, at: 1)
                try copy.bind(row.sequence, at: 2)
                try copy.step()
                if database.changes == 1 { newestDelivered = database.lastInsertRowID }
            }
            delete.rewind()
            try delete.bind(row.sequence, at: 1)
            try delete.step()
            if database.changes == 1 {
                counts.inFlight -= 1
                counts.bytes -= row.size
            }
        }
        if !others.isEmpty {
            let list = EventStoreSchema.literals(others)
            if keep > 0 {
                let copyByID = try database.prepare(EventStoreSchema.copyDeliveredByID + " (\(list))")
                try copyByID.bind(deliveredAt, at: 1)
                try copyByID.step()
                if database.changes > 0 { newestDelivered = database.lastInsertRowID }
            }
            let scan = try database.prepare("DELETE FROM events WHERE id IN (\(list)) RETURNING status, size")
            try settle(scan)
        }
        if let newestDelivered { try trimDeliveredHistory(database, newest: newestDelivered, keeping: keep) }
    }

    /// Deletes the delivered history's oldest rows beyond the most recent `keep` (`newest` is the
    /// last `dseq` written; the history is numbered without gaps in delivery order).
    func trimDeliveredHistory(_ database: SQLiteDatabase, newest: Int64, keeping keep: Int) throws {
        guard newest > Int64(keep) else { return }
        let trim = try database.cached(EventStoreSchema.trimDelivered)
        try trim.bind(newest - Int64(keep), at: 1)
        try trim.step()
    }
}
