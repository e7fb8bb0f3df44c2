import Foundation

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
        let (outcome, inserted) = try write { database, counts in
            var outcome = InsertOutcome()
            let statement = try database.cached(EventStoreSchema.insert)
            var seen = KeySet(minimumCapacity: events.count)
            // All the window's lookups first, their cache misses overlapped (interleaved with
            // SQLite calls, each would wait for its miss alone).
            let keys = events.map { Self.duplicateKey($0.id.uuid) }
            recentIDs.warm(keys)
            if !olderIDs.isEmpty { olderIDs.warm(keys) }
            let duplicate = keys.map { key in !seen.insert(key) || recentIDs.contains(key) || (!olderIDs.isEmpty && olderIDs.contains(key))
            }
            var firstSequence: Int64?
            var newContexts: [UInt64] = []
            for (element, isDuplicate) in zip(events, duplicate) {
                try element.withBorrowed { event in
                    if isDuplicate {
                        outcome.duplicates.append(event.id)
                        return
                    }
                    statement.rewind()
                    let size = event.approximateSize
                    let held = ConsentHold.isHeld(event.flags)
                    var contextReference: Int64 = 0
                    if let shared = event.sharedContext {
                        if !storedContexts.contains(shared.hash), !newContexts.contains(shared.hash) {
                            try storeContext(shared, database)
                            newContexts.append(shared.hash)
                        }
                        contextReference = Int64(bitPattern: shared.hash)
                    }
                    try Self.bindAndStep(event, createdAt: createdAt, size: size, held: held,
                                         contextReference: contextReference, statement)
                    if database.changes == 1 {
                        outcome.inserted += 1
                        if held { counts.held += 1 } else { counts.pending += 1 }
                        counts.bytes += size
                        if firstSequence == nil { firstSequence = database.lastInsertRowID }
                    } else {
                        outcome.duplicates.append(event.id) // a store made before version 2 (UNIQUE id)
                    }
                }
            }
            for (key, value) in metadata { try setMetadata(key, value, database) }
            if let firstSequence { pendingFloor = min(pendingFloor, firstSequence) }
            outcome.evicted = try evict(database, &counts)
            return (outcome, (ids: seen, contexts: newContexts))
        }
        remember(inserted.ids)
        lock.withLock { storedContexts.formUnion(inserted.contexts) }
        return outcome
    }

    /// Binds one row of the insert statement, the texts and blobs without copying them (they stay
    /// borrowed until the step), and steps it: no allocation per event.
    @inline(__always)
    private static func bindAndStep(_ event: BorrowedEvent, createdAt: Int64, size: Int, held: Bool,
                                    contextReference: Int64, _ statement: SQLiteStatement) throws {
        var uuid = event.uuid
        try withUnsafeBytes(of: &uuid) { try statement.bindBorrowed(bytes: $0, at: 1) }
        try statement.bind(event.timestampMilliseconds, at: 2)
        try statement.bindBorrowed(text: event.category, at: 3)
        try statement.bindBorrowed(text: event.name, at: 4)
        try statement.bindBorrowed(text: event.action, at: 5)
        try statement.bindBorrowed(bytes: event.userData, at: 6)
        try statement.bindBorrowed(bytes: event.context, at: 7)
        try statement.bindBorrowed(bytes: event.flags, at: 8)
        try statement.bind(createdAt, at: 9)
        try statement.bind(size, at: 10)
        try statement.bind(held ? EventStoreSchema.held : EventStoreSchema.pending, at: 11)
        try statement.bind(contextReference, at: 12)
        _ = try statement.step()
    }

    /// Keeps a shared context once in `contexts` (in the caller's transaction).
    private func storeContext(_ shared: EncodedSharedContext, _ database: SQLiteDatabase) throws {
        let statement = try database.cached(EventStoreSchema.insertContext)
        statement.rewind()
        try statement.bind(Int64(bitPattern: shared.hash), at: 1)
        try statement.bind(bytes: shared.json, at: 2)
        try statement.step()
    }

    /// Adds ids to the duplicate window, rolling generations when the newest is full.
    func remember(_ keys: KeySet) {
        lock.withLock {
            if recentIDs.count + keys.count > Self.duplicateWindow {
                swap(&olderIDs, &recentIDs)
                recentIDs.removeAll(keepingCapacity: true)
            }
            recentIDs.formUnion(keys)
        }
    }

    /// The id's last 64 bits: random in UUIDv7 (and v4), so distinct ids practically never share them.
    static func duplicateKey(_ bytes: uuid_t) -> UInt64 { UInt64(bytes.8) << 56 | UInt64(bytes.9) << 48 | UInt64(bytes.10) << 40 | UInt64(bytes.11) << 32
            | UInt64(bytes.12) << 24 | UInt64(bytes.13) << 16 | UInt64(bytes.14) << 8 | UInt64(bytes.15)
    }

    /// Deletes the oldest pending rows while the counts exceed the limits.
    func evict(_ database: SQLiteDatabase, _ counts: inout StoreCounts) throws -> [UUID] {
        var evicted: [UUID] = []
        while counts.total > limits.maxEvents || counts.bytes > limits.maxBytes {
            let excess = counts.total - limits.maxEvents
            let page = min(1_000, max(excess, 64))
            let select = try database.cached(EventStoreSchema.oldestPending)
            try select.bind(pendingFloor, at: 1)
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
