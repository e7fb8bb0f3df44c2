import Foundation
import Tracking

// Inserting events, ignoring recent duplicates and evicting past the limits.
extension EventStore {
    /// Inserts events in one transaction. Ids already stored are ignored and reported; then the
    /// oldest pending events are evicted until the ``limits`` hold.
    /// - Parameters:
    ///   - events: the events, in order: ``EncodedEvent``s, or ``BorrowedEvent``s whose memory
    ///     stays valid during the call (each row binds them without copying).
    ///   - metadata: `meta` entries written in the same transaction (the ingest writer records its
    ///     journal position this way).
    ///   - now: the creation time recorded.
    /// - Returns: what was inserted, ignored and evicted.
    @discardableResult
    func insert<Events: Collection>(_ events: Events, settingMetadata metadata: [String: String] = [:],
                                    now: Date = Date()) throws -> InsertOutcome where Events.Element: BorrowableEvent {
        guard !events.isEmpty || !metadata.isEmpty else { return InsertOutcome() }
        let createdAt = Self.milliseconds(now)
        let (outcome, inserted) = try write { database, counts, state in
            var outcome = InsertOutcome()
            let statement = try database.cached(EventStoreSchema.insert)
            var seen = KeySet(minimumCapacity: events.count)
            // All the window's lookups first, their cache misses overlapped (interleaved with
            // SQLite calls, each would wait for its miss alone).
            let keys = events.map { Self.duplicateKey($0.id.uuid) }
            state.recentIDs.warm(keys)
            if !state.olderIDs.isEmpty { state.olderIDs.warm(keys) }
            let duplicate = keys.map { key in
                !seen.insert(key) || state.recentIDs.contains(key) || (!state.olderIDs.isEmpty && state.olderIDs.contains(key))
            }
            var firstSequence: Int64?
            var newContexts: [EncodedSharedContext] = []
            var lastContext: UInt64?
            // Rows whose fields stay valid after `withBorrowed` returns (a journal batch) go in
            // with one statement per `rowsPerInsert`: SQLite's per-statement work is paid once.
            let multiRow = Events.Element.fieldsOutliveBorrow && !state.idsAreUnique
                ? try database.cached(EventStoreSchema.insertRows) : nil
            var queued: [InsertRow] = []
            if multiRow != nil { queued.reserveCapacity(EventStoreSchema.rowsPerInsert) }
            func inserted(_ row: InsertRow, sequence: Int64) {
                outcome.inserted += 1
                if row.held { counts.held += 1 } else { counts.pending += 1 }
                counts.bytes += row.size
                if firstSequence == nil { firstSequence = sequence }
            }
            for (element, isDuplicate) in zip(events, duplicate) {
                try element.withBorrowed { event in
                    if isDuplicate {
                        outcome.duplicates.append(event.id)
                        return
                    }
                    var contextReference: Int64 = 0
                    if let shared = event.sharedContext {
                        // Runs of events share one context: only a new one is looked up.
                        if shared.hash != lastContext, state.contextCache[shared.hash] == nil, !newContexts.contains(where: { $0.hash == shared.hash }) {
                            try storeContext(shared, database)
                            newContexts.append(shared)
                        }
                        lastContext = shared.hash
                        contextReference = Int64(bitPattern: shared.hash)
                    }
                    let row = InsertRow(event: event, createdAt: createdAt, size: event.approximateSize,
                                        held: ConsentHold.isHeld(event.flags), contextReference: contextReference)
                    if let multiRow {
                        queued.append(row)
                        guard queued.count == EventStoreSchema.rowsPerInsert else { return }
                        let last = try Self.insert(queued, multiRow, database)
                        for (offset, row) in queued.enumerated() {
                            inserted(row, sequence: last - Int64(queued.count - 1 - offset))
                        }
                        queued.removeAll(keepingCapacity: true)
                        return
                    }
                    statement.rewind()
                    try row.bind(to: statement, from: 1)
                    _ = try statement.step()
                    if database.changes == 1 {
                        inserted(row, sequence: database.lastInsertRowID)
                    } else {
                        outcome.duplicates.append(event.id) // a store made before version 2 (UNIQUE id)
                    }
                }
            }
            // The last rows of a batch, fewer than a multi-row statement takes (their fields
            // are still valid: see `fieldsOutliveBorrow`).
            for row in queued {
                statement.rewind()
                try row.bind(to: statement, from: 1)
                _ = try statement.step()
                guard database.changes == 1 else { throw Self.rowNotInserted }
                inserted(row, sequence: database.lastInsertRowID)
            }
            for (key, value) in metadata { try setMetadata(key, value, database) }
            if let firstSequence { state.pendingFloor = min(state.pendingFloor, firstSequence) }
            outcome.evicted = try evict(database, &counts, from: state.pendingFloor)
            return (outcome, (ids: seen, contexts: newContexts))
        }
        state.withLock { state in
            state.remember(inserted.ids)
            for context in inserted.contexts { state.contextCache[context.hash] = context.json }
        }
        return outcome
    }

    /// Inserts `rows` with ``EventStoreSchema/insertRows`` (exactly ``EventStoreSchema/rowsPerInsert``
    /// of them) in one step.
    /// - Returns: the `seq` of the last row; the others precede it one by one.
    private static func insert(_ rows: [InsertRow], _ statement: SQLiteStatement, _ database: SQLiteDatabase) throws -> Int64 {
        statement.rewind()
        for (offset, row) in rows.enumerated() {
            try row.bind(to: statement, from: Int32(offset) * InsertRow.parameterCount + 1)
        }
        _ = try statement.step()
        // Without a unique index on `id` (checked when the store opened) no row is ignored.
        guard database.changes == rows.count else { throw rowNotInserted }
        return database.lastInsertRowID
    }

    /// The error for a row SQLite ignored where it has nothing to ignore it for.
    private static var rowNotInserted: SQLiteError {
        SQLiteError(extendedCode: SQLiteError.constraint, message: "an event row was not inserted", sql: EventStoreSchema.insert)
    }

    /// Keeps a shared context once in `contexts` (in the caller's transaction).
    private func storeContext(_ shared: EncodedSharedContext, _ database: SQLiteDatabase) throws {
        let statement = try database.cached(EventStoreSchema.insertContext)
        statement.rewind()
        try statement.bind(Int64(bitPattern: shared.hash), at: 1)
        try statement.bind(bytes: shared.json, at: 2)
        try statement.step()
    }

    /// The id's last 64 bits: random in UUIDv7 (and v4), so distinct ids practically never share them.
    static func duplicateKey(_ bytes: uuid_t) -> UInt64 { UInt64(bytes.8) << 56 | UInt64(bytes.9) << 48 | UInt64(bytes.10) << 40 | UInt64(bytes.11) << 32
            | UInt64(bytes.12) << 24 | UInt64(bytes.13) << 16 | UInt64(bytes.14) << 8 | UInt64(bytes.15)
    }

    /// Deletes the oldest pending rows while the counts exceed the limits.
    /// - Parameter floor: no pending row has a `seq` below it.
    func evict(_ database: SQLiteDatabase, _ counts: inout StoreCounts, from floor: Int64) throws -> [UUID] {
        var evicted: [UUID] = []
        while counts.total > limits.maxEvents || counts.bytes > limits.maxBytes {
            let excess = counts.total - limits.maxEvents
            let page = min(1_000, max(excess, 64))
            let select = try database.cached(EventStoreSchema.oldestPending)
            try select.bind(floor, at: 1)
            try select.bind(page, at: 2)
            var rows: [(sequence: Int64, id: UUID?, size: Int)] = []
            while try select.step() { rows.append((select.int64(0), select.uuid(1), select.int(2))) }
            select.reset()
            guard !rows.isEmpty else { break }
            let delete = try database.cached(EventStoreSchema.deleteBySequence)
            for row in rows {
                guard counts.total > limits.maxEvents || counts.bytes > limits.maxBytes else { break }
                delete.reset()
                try delete.bind(row.sequence, at: 1)
                try delete.step()
                counts.pending -= 1
                counts.bytes -= row.size
                counts.evicted += 1
                if let id = row.id { evicted.append(id) }
            }
        }
        return evicted
    }
}
