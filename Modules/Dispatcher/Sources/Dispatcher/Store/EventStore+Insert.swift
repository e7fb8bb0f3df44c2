import Foundation

// Inserting events, ignoring recent duplicates and evicting past the limits.
extension EventStore {
    /// Inserts events in one transaction. Ids already stored are ignored and reported; then the
    /// oldest pending events are evicted until the ``limits`` hold.
    /// - Parameters:
    ///   - events: the events, in order.
    ///   - metadata: `meta` entries written in the same transaction (the ingest writer records its
    ///     journal position this way).
    ///   - now: the creation time recorded.
    /// - Returns: what was inserted, ignored and evicted.
    @discardableResult
    func insert(_ events: [EncodedEvent], settingMetadata metadata: [String: String] = [:], now: Date = Date()) throws -> InsertOutcome {
        guard !events.isEmpty || !metadata.isEmpty else { return InsertOutcome() }
        let createdAt = Self.milliseconds(now)
        let (outcome, inserted) = try write { database, counts in
            var outcome = InsertOutcome()
            let statement = try database.cached(EventStoreSchema.insert)
            var seen = Set<UInt64>(minimumCapacity: events.count)
            var firstSequence: Int64?
            var newContexts: [UInt64] = []
            for event in events {
                let key = Self.duplicateKey(event.id)
                if !seen.insert(key).inserted || recentIDs.contains(key) || (!olderIDs.isEmpty && olderIDs.contains(key)) {
                    outcome.duplicates.append(event.id)
                    continue
                }
                statement.rewind()
                let size = event.approximateSize
                try statement.bind(event.id, at: 1)
                try statement.bind(event.timestampMilliseconds, at: 2)
                try statement.bind(createdAt, at: 9)
                try statement.bind(size, at: 10)
                let held = ConsentHold.isHeld(event.flagsJSON)
                try statement.bind(held ? EventStoreSchema.held : EventStoreSchema.pending, at: 11)
                if let shared = event.sharedContext {
                    if !storedContexts.contains(shared.hash), !newContexts.contains(shared.hash) {
                        try storeContext(shared, database)
                        newContexts.append(shared.hash)
                    }
                    try statement.bind(Int64(bitPattern: shared.hash), at: 12)
                } else {
                    try statement.bind(Int64(0), at: 12)
                }
                try Self.bindBorrowedAndStep(event, statement)
                if database.changes == 1 {
                    outcome.inserted += 1
                    if held { counts.held += 1 } else { counts.pending += 1 }
                    counts.bytes += size
                    if firstSequence == nil { firstSequence = database.lastInsertRowID }
                } else {
                    outcome.duplicates.append(event.id) // a store made before version 2 (UNIQUE id)
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

    /// Binds the event's texts and blobs (parameters 3–8) without copying them, and steps the
    /// statement while they are borrowed: no allocation per event on the writer thread.
    private static func bindBorrowedAndStep(_ event: EncodedEvent, _ statement: SQLiteStatement) throws {
        var category = event.category
        var name = event.name
        var action = event.action
        try category.withUTF8 { category in
            try name.withUTF8 { name in
                try action.withUTF8 { action in
                    try event.userDataJSON.withUnsafeBytes { userData in
                        try event.contextJSON.withUnsafeBytes { context in
                            try event.flagsJSON.withUnsafeBytes { flags in
                                try statement.bindBorrowed(text: category, at: 3)
                                try statement.bindBorrowed(text: name, at: 4)
                                try statement.bindBorrowed(text: action, at: 5)
                                try statement.bindBorrowed(bytes: userData, at: 6)
                                try statement.bindBorrowed(bytes: context, at: 7)
                                try statement.bindBorrowed(bytes: flags, at: 8)
                                _ = try statement.step()
                            }
                        }
                    }
                }
            }
        }
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
    func remember(_ keys: Set<UInt64>) {
        lock.withLock {
            if recentIDs.count + keys.count > Self.duplicateWindow {
                olderIDs = recentIDs
                recentIDs = Set(minimumCapacity: Self.duplicateWindow)
            }
            recentIDs.formUnion(keys)
        }
    }

    /// The id's last 64 bits: random in UUIDv7 (and v4), so distinct ids practically never share them.
    static func duplicateKey(_ id: UUID) -> UInt64 {
        let bytes = id.uuid
        return UInt64(bytes.8) << 56 | UInt64(bytes.9) << 48 | UInt64(bytes.10) << 40 | UInt64(bytes.11) << 32
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
