import Foundation
import Tracking

// The delivery queue, for events not delivered: retries, the collector's deferral (Retry-After), rejections and
// releases back to pending.
extension EventStore {
    /// Returns in-flight events to pending with one more attempt, `error` kept, due again at
    /// `nextAttemptAt`. Events not in flight are left alone.
    func scheduleRetry(_ ids: [UUID], nextAttemptAt: Date, error: String) throws {
        try returnInFlight(ids, with: EventStoreSchema.retry) { update in
            try update.bind(Self.milliseconds(nextAttemptAt), at: 1)
            try update.bind(error, at: 2)
            return 3
        }
    }

    /// Moves every pending next-attempt time later than `latest` back to `latest`, so a retry
    /// scheduled while the clock was ahead waits no longer than the retry policy allows, and
    /// returns the earliest next attempt among the pending events not due at `now` (nil when
    /// none waits). Scans the pending rows once; returns at once when none is pending.
    func capRetryTimes(notAfter latest: Date, now: Date) throws -> Date? {
        guard counts().pending > 0 else { return nil }
        let cap = Self.milliseconds(latest)
        let due = Self.milliseconds(now)
        return try write { database, _, state in
            let update = try database.cached(EventStoreSchema.capRetryTimes)
            update.reset()
            try update.bind(cap, at: 1)
            try update.bind(state.pendingFloor, at: 2)
            try update.bind(cap, at: 3)
            try update.step()
            let select = try database.cached(EventStoreSchema.earliestWaiting)
            select.reset()
            try select.bind(state.pendingFloor, at: 1)
            try select.bind(due, at: 2)
            defer { select.reset() }
            guard try select.step(), !select.isNull(0) else { return nil }
            return Self.date(select.int64(0))
        }
    }

    /// Records, in the `meta` table, that the collector asked (`Retry-After`) to be sent
    /// nothing before `date`.
    func deferDeliveries(until date: Date) throws {
        try setMetadata(EventStoreSchema.deferredUntilKey, String(Self.milliseconds(date)))
    }

    /// The time recorded by ``deferDeliveries(until:)``; nil when none was (or it is unreadable).
    func deferredUntil() throws -> Date? {
        try metadata(EventStoreSchema.deferredUntilKey).flatMap(Int64.init).map(Self.date)
    }

    /// Moves in-flight or pending events to rejected, counting an attempt and keeping `reason`.
    func reject(_ ids: [UUID], reason: String) throws {
        guard !ids.isEmpty else { return }
        try write { database, counts, state in
            let (claimed, others) = state.partition(ids)
            let update = try database.cached(EventStoreSchema.rejectInFlight)
            for row in claimed {
                update.reset()
                try update.bind(reason, at: 1)
                try update.bind(row.sequence, at: 2)
                try update.step()
                let changed = database.changes
                counts.inFlight -= changed
                counts.rejected += changed
            }
            if !others.isEmpty {
                let scan = try database.prepare("""
                    UPDATE events SET status = 2, attempts = attempts + 1, last_error = ?
                    WHERE id IN (\(EventStoreSchema.literals(others))) AND status = 0
                    """)
                try scan.bind(reason, at: 1)
                try scan.step()
                let changed = database.changes
                counts.pending -= changed
                counts.rejected += changed
            }
        }
        state.withLock { state in for id in ids { state.inFlight[id] = nil } }
    }

    /// Returns in-flight events to pending without counting an attempt.
    func release(_ ids: [UUID]) throws {
        try returnInFlight(ids, with: EventStoreSchema.release) { _ in 1 }
    }

    /// Runs `sql` for each in-flight row of `ids` (`bind` sets the leading parameters and returns
    /// the index of the row's `seq`), counting the rows it moves from in flight back to pending.
    private func returnInFlight(_ ids: [UUID], with sql: String, bind: (SQLiteStatement) throws -> Int32) throws {
        guard !ids.isEmpty else { return }
        try write { database, counts, state in
            let update = try database.cached(sql)
            for row in state.partition(ids).inFlight {
                update.reset()
                try update.bind(row.sequence, at: try bind(update))
                try update.step()
                let changed = database.changes
                counts.inFlight -= changed
                counts.pending += changed
            }
        }
        returnToPending(ids)
    }

    /// Forgets ids as in flight and lowers the pending floor to their rows.
    func returnToPending(_ ids: [UUID]) {
        state.withLock { state in
            for id in ids {
                if let row = state.inFlight.removeValue(forKey: id) { state.pendingFloor = min(state.pendingFloor, row.sequence) }
            }
        }
    }

    /// Returns every in-flight event to pending (done on open: recovery from a crash mid-delivery).
    /// - Returns: how many were released.
    @discardableResult
    func releaseAllInFlight() throws -> Int {
        guard !isReadOnly else { throw readOnlyError }
        return try withDatabase { database, state in try releaseAllInFlightLocked(database, &state) }
    }

    @discardableResult
    func releaseAllInFlightLocked(_ database: SQLiteDatabase, _ state: inout State) throws -> Int {
        guard state.counters.inFlight > 0 || !state.inFlight.isEmpty else { return 0 }
        var next = state.counters
        let range = try readMetadata(EventStoreSchema.inFlightRangeKey, database).flatMap { text -> (Int64, Int64)? in
            let parts = text.split(separator: ":").compactMap { Int64($0) }
            return parts.count == 2 ? (parts[0], parts[1]) : nil
        }
        let released = try database.transaction {
            if let range {
                let update = try database.cached(EventStoreSchema.releaseRange)
                try update.bind(range.0, at: 1)
                try update.bind(range.1, at: 2)
                try update.step()
            } else {
                try database.cached(EventStoreSchema.releaseAll).step()
            }
            let changed = database.changes
            next.inFlight = 0
            next.pending += changed
            try writeCounters(next, database)
            return changed
        }
        state.counters = next
        state.inFlight = [:]
        state.pendingFloor = min(state.pendingFloor, range?.0 ?? 0)
        return released
    }
}
