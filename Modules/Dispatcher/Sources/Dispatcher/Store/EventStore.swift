import Foundation

/// The Dispatcher's persistent queue: one SQLite file (WAL, `synchronous = NORMAL`, mode 0600)
/// holding pending, in-flight, rejected and held events, plus a small key/value `meta` table
/// and a bounded history of delivered events for the monitor.
///
/// - Rejected events stay until ``deleteRejected()``, or return to pending through
///   ``requeueRejected()``.
/// - Events leave only through ``acknowledge(_:)`` (delivered), ``deleteRejected()``,
///   ``deleteHeld(category:)`` or ``purge()``, or, when the ``StoreLimits`` are exceeded, by
///   eviction of the oldest *pending* events, which is counted in ``StoreCounts/evicted`` and
///   reported by ``insert(_:settingMetadata:now:)``.
/// - An acknowledged event is copied, in the same transaction, into the delivered history, which
///   keeps the most recent ``StoreLimits/deliveredHistory`` of them (see ``query(_:)``).
/// - An event flagged `awaiting_consent` is stored as ``EventStatus/held``: never claimed, never
///   evicted, until ``releaseHeld(category:)`` or ``deleteHeld(category:)``.
/// - ``init(path:limits:readOnly:)`` with `readOnly` inspects a store another process is using
///   without writing anything.
/// - Opening is fast whatever the backlog: counts are kept in the file, in-flight rows from a
///   crashed run are found through the `seq` range recorded when they were claimed.
/// - Duplicate ids are ignored when they arrive within the last 32,768–65,536 ids inserted by
///   this process (the ingest writer never replays what it committed); an older duplicate is
///   stored again and delivered with the same id, which the pipeline drops.
/// - There is no secondary index (see `EventStoreSchema`): operations by id on rows not in
///   flight, `deleteRejected()` and status-filtered queries scan the table once.
/// - Every store carries its signature, SQLite's `PRAGMA application_id` = `0x54524B51`
///   ("TRKQ"), written when the store is created and stamped on an older store of this project
///   when it is opened for writing. Opening decides from the file at `path`:
///   - missing, or empty (0 bytes): a new store is created there;
///   - a SQLite database with the signature, or an older store of this project without it
///     (application id 0 with an `events` table, or, when its schema cannot be read, the
///     schema's `user_version`), or a SQLite database with no table at all (a store whose
///     write-ahead log was lost before its first checkpoint): opened; when damaged, renamed aside
///     (`<path>.corrupt-<timestamp>`) and a fresh store is opened; ``recoveredFrom`` says so;
///   - anything else (a text file, random bytes, another application's database): refused with
///     ``StoreError/notAStore(path:reason:)``, and the file is left untouched (not renamed, not
///     written, no lock file made beside it).
///
/// Thread-safe: every call takes the store's lock for its duration.
final class EventStore: DeliveryQueue, @unchecked Sendable {
    // Safe: every stored property below is only touched while holding `lock`.
    private let lock = NSLock()
    private var database: SQLiteDatabase?
    private var counters = StoreCounts()
    private var recovered: String?
    private var closedByUser = false
    /// The writer's claim on the store; `nil` when opened for reading.
    private var writerLock: StoreLock?
    /// No pending row has a `seq` below this.
    private var pendingFloor: Int64 = 0
    /// The rows in flight claimed through this store: id → seq and size.
    private var inFlight: [UUID: (sequence: Int64, size: Int)] = [:]
    /// Keys of ids inserted recently (two generations), to ignore duplicates without an index.
    private var recentIDs = Set<UInt64>(minimumCapacity: EventStore.duplicateWindow)
    private var olderIDs: Set<UInt64> = []
    /// The last reading of the events only in the journal (see ``query(_:)``).
    private var journalRows: [StoredEvent]?

    /// How many recent ids each generation of the duplicate window holds.
    static let duplicateWindow = 32_768

    /// The database file.
    let path: String
    /// The bounds enforced on insert.
    let limits: StoreLimits
    /// Whether the store was opened for reading only: every write throws ``StoreError/readOnly(path:cause:)``.
    let isReadOnly: Bool

    /// Opens the store at `path`, creating it (and its folder) when missing, and returns any
    /// events left in flight by an earlier run to pending.
    ///
    /// With `readOnly`, the store is opened `SQLITE_OPEN_READONLY` to inspect a file that a live
    /// process may be using (the monitor): nothing is created, upgraded, released or set aside
    /// (not even SQLite's `-wal`/`-shm` files: see ``SQLiteDatabase/readOnlyURI(_:)``),
    /// ``counts()`` is re-read from the file on each call, every write throws, and
    /// ``query(_:)`` also lists the events still only in the journal beside the store.
    /// - Parameters:
    ///   - path: the SQLite file.
    ///   - limits: the bounds enforced on insert.
    ///   - readOnly: open for reading only. Defaults to `false`.
    /// A writable open claims the store for this process (`<path>.lock`): a second writer is
    /// refused with ``StoreError/inUse(path:pid:)`` until ``close()``, or the owner's death.
    /// - Throws: ``StoreError`` when the file cannot be created or opened (read-only or missing
    ///   folder, full disk); ``StoreError/notAStore(path:reason:)`` when an existing, non-empty
    ///   file is not an event store (it is left untouched). A corrupt store does not throw: it is
    ///   set aside, see ``recoveredFrom``.
    ///   With `readOnly`, a missing or empty file throws ``StoreError/cannotOpen(path:reason:errno:)``,
    ///   a file that is not a store ``StoreError/notAStore(path:reason:)``, and a damaged store
    ///   ``StoreError/corrupt(path:setAsidePath:cause:)``.
    init(path: String, limits: StoreLimits = StoreLimits(), readOnly: Bool = false) throws {
        self.path = path
        self.limits = limits
        self.isReadOnly = readOnly
        try lock.withLock {
            if readOnly { return try openForReadingLocked() }
            let folder = StorePath.folder(of: path)
            if !folder.isEmpty { try FileProtection.createDirectory(atPath: folder) }
            var isFolder: ObjCBool = false
            if path.isEmpty || (FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) && isFolder.boolValue) {
                throw StoreError.cannotOpen(path: path, reason: "the store path must name a file, not a folder", errno: EISDIR)
            }
            if case .foreign(let reason) = EventStoreSignature.classify(path) {
                throw StoreError.notAStore(path: path, reason: reason)
            }
            writerLock = try StoreLock(storePath: path)
            do { try openLocked() } catch {
                writerLock?.release()
                writerLock = nil
                throw error
            }
        }
    }

    deinit {
        database?.close()
        writerLock?.release()
    }

    /// The path a damaged store file was renamed to when this store was opened (or later, when
    /// damage was found during an operation); `nil` when no recovery happened.
    var recoveredFrom: String? { lock.withLock { recovered } }

    // MARK: Opening

    private func openLocked() throws {
        let folder = StorePath.folder(of: path)
        if !folder.isEmpty { try FileProtection.createDirectory(atPath: folder) }
        do {
            try openFile()
        } catch let error as SQLiteError where error.isCorruption {
            // Rename before closing: closing would otherwise delete the damaged `-wal` with it.
            let aside = FileProtection.setAside(path)
            database?.close()
            database = nil
            guard let aside else {
                throw StoreError.corrupt(path: path, setAsidePath: nil, cause: error.description)
            }
            recovered = aside
            do { try openFile() } catch let error as SQLiteError { throw StoreError.from(error, path: path) }
        } catch let error as SQLiteError {
            database?.close()
            database = nil
            throw StoreError.from(error, path: path)
        }
    }

    /// Opens the file read-only and reads the counters; writes nothing.
    private func openForReadingLocked() throws {
        guard FileManager.default.fileExists(atPath: path) else {
            throw StoreError.cannotOpen(path: path, reason: "no store file to read", errno: ENOENT)
        }
        switch EventStoreSignature.classify(path) {
        case .foreign(let reason): throw StoreError.notAStore(path: path, reason: reason)
        case .new: throw StoreError.cannotOpen(path: path, reason: "the store file is empty", errno: nil)
        case .own: break
        }
        do {
            let database = try SQLiteDatabase(path: SQLiteDatabase.readOnlyURI(path), flags: [.readOnly, .noMutex, .uri])
            self.database = database
            guard try database.scalarInt("PRAGMA user_version") == EventStoreSchema.version else {
                let version = try database.scalarInt("PRAGMA user_version") ?? 0
                database.close()
                self.database = nil
                throw StoreError.cannotOpen(
                    path: path, reason: "not an event store of version \(EventStoreSchema.version) (found \(version))", errno: nil)
            }
            counters = try readCounters(database)
        } catch let error as SQLiteError {
            database?.close()
            database = nil
            throw StoreError.from(error, path: path)
        }
    }

    /// The error every write to a store opened for reading throws.
    private var readOnlyError: StoreError {
        .readOnly(path: path, cause: SQLiteError(extendedCode: SQLiteError.readOnly, message: "store opened for reading only").description)
    }

    /// Opens the file, sets WAL (checked) and the schema, reads the counters and releases in-flight rows.
    private func openFile() throws {
        try FileProtection.createFile(atPath: path)
        let database = try SQLiteDatabase(path: path)
        self.database = database
        try database.enableWriteAheadLog()
        try database.execute("PRAGMA temp_store = MEMORY")
        // Some builds (Debian's) default to full secure delete, which writes every freed page to
        // the log: deleted rows are overwritten when it costs no extra I/O; purge() vacuums.
        try database.execute("PRAGMA secure_delete = FAST")
        if try database.scalarInt("PRAGMA user_version") != EventStoreSchema.version {
            try database.transaction {
                try database.execute(EventStoreSchema.create)
                if try database.scalarInt(EventStoreSchema.hasHeldCounter) == 0 {
                    try database.execute(EventStoreSchema.addHeldCounter)
                }
            }
        }
        if try database.scalarInt("PRAGMA application_id") != Int64(EventStoreSignature.applicationID) {
            try database.execute("PRAGMA application_id = \(EventStoreSignature.applicationID)")
        }
        counters = try readCounters(database)
        pendingFloor = 0
        inFlight = [:]
        recentIDs.removeAll(keepingCapacity: true)
        olderIDs = []
        for suffix in ["-wal", "-shm"] { FileProtection.restrict(path + suffix) }
        try releaseAllInFlightLocked(database)
    }

    private func readCounters(_ database: SQLiteDatabase) throws -> StoreCounts {
        let statement = try database.cached(EventStoreSchema.readCounters)
        guard try statement.step() else { return StoreCounts() }
        let counts = StoreCounts(pending: statement.int(0), inFlight: statement.int(1), rejected: statement.int(2),
                                 bytes: statement.int(3), evicted: statement.int(4), held: statement.int(5))
        statement.reset()
        return counts
    }

    private func writeCounters(_ counts: StoreCounts, _ database: SQLiteDatabase) throws {
        let statement = try database.cached(EventStoreSchema.writeCounters)
        try statement.bind(counts.pending, at: 1)
        try statement.bind(counts.inFlight, at: 2)
        try statement.bind(counts.rejected, at: 3)
        try statement.bind(counts.bytes, at: 4)
        try statement.bind(counts.evicted, at: 5)
        try statement.bind(counts.held, at: 6)
        try statement.step()
    }

    /// Runs `body` with the open database under the lock. SQLite errors become ``StoreError``s;
    /// on damage the file is set aside and a fresh store opened before the error is thrown.
    private func withDatabase<Result>(_ body: (SQLiteDatabase) throws -> Result) throws -> Result {
        try lock.withLock {
            if database == nil {
                if closedByUser { throw StoreError.closed(path: path) }
                try isReadOnly ? openForReadingLocked() : openLocked()
            }
            guard let database else { throw StoreError.closed(path: path) }
            do {
                return try body(database)
            } catch let error as SQLiteError where error.isCorruption && isReadOnly {
                throw StoreError.corrupt(path: path, setAsidePath: nil, cause: error.description)
            } catch let error as SQLiteError where error.isCorruption {
                let aside = FileProtection.setAside(path)
                database.close()
                self.database = nil
                recovered = aside ?? recovered
                counters = StoreCounts()
                try? openLocked()
                throw StoreError.corrupt(path: path, setAsidePath: aside, cause: error.description)
            } catch let error as SQLiteError {
                throw StoreError.from(error, path: path)
            }
        }
    }

    /// Runs `body` in a transaction on a copy of the counters, which are written in the same
    /// transaction and kept only when it commits.
    private func write<Result>(_ body: (SQLiteDatabase, inout StoreCounts) throws -> Result) throws -> Result {
        guard !isReadOnly else { throw readOnlyError }
        return try withDatabase { database in
            var next = counters
            let result = try database.transaction {
                let result = try body(database, &next)
                try writeCounters(next, database)
                return result
            }
            counters = next
            return result
        }
    }

    // MARK: Inserting

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
                try statement.bind(event.category, at: 3)
                try statement.bind(event.name, at: 4)
                try statement.bind(event.action, at: 5)
                try statement.bind(bytes: event.userDataJSON, at: 6)
                try statement.bind(bytes: event.contextJSON, at: 7)
                try statement.bind(bytes: event.flagsJSON, at: 8)
                try statement.bind(createdAt, at: 9)
                try statement.bind(size, at: 10)
                let held = ConsentHold.isHeld(event.flagsJSON)
                try statement.bind(held ? EventStoreSchema.held : EventStoreSchema.pending, at: 11)
                try statement.step()
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
            return (outcome, seen)
        }
        remember(inserted)
        return outcome
    }

    /// Adds ids to the duplicate window, rolling generations when the newest is full.
    private func remember(_ keys: Set<UInt64>) {
        lock.withLock {
            if recentIDs.count + keys.count > Self.duplicateWindow {
                olderIDs = recentIDs
                recentIDs = Set(minimumCapacity: Self.duplicateWindow)
            }
            recentIDs.formUnion(keys)
        }
    }

    /// The id's last 64 bits: random in UUIDv7 (and v4), so distinct ids practically never share them.
    private static func duplicateKey(_ id: UUID) -> UInt64 {
        let bytes = id.uuid
        return UInt64(bytes.8) << 56 | UInt64(bytes.9) << 48 | UInt64(bytes.10) << 40 | UInt64(bytes.11) << 32
            | UInt64(bytes.12) << 24 | UInt64(bytes.13) << 16 | UInt64(bytes.14) << 8 | UInt64(bytes.15)
    }

    /// Deletes the oldest pending rows while the counts exceed the limits.
    private func evict(_ database: SQLiteDatabase, _ counts: inout StoreCounts) throws -> [UUID] {
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

    // MARK: DeliveryQueue

    /// Marks up to `limit` due pending events (oldest first, fitting `maxBytes` together, at
    /// least one) as in flight and returns them. Reads one page with `LIMIT`, never the store.
    func claimBatch(limit: Int, maxBytes: Int, now: Date) throws -> [StoredEvent] {
        guard limit > 0 else { return [] }
        let due = Self.milliseconds(now)
        let claimed: [StoredEvent] = try write { database, counts in
            guard counts.pending > 0 else { return [] }
            let first = try database.cached(EventStoreSchema.firstPending)
            try first.bind(pendingFloor, at: 1)
            guard try first.step() else {
                first.reset()
                return []
            }
            pendingFloor = first.int64(0)
            first.reset()
            let select = try database.cached(EventStoreSchema.claim)
            try select.bind(pendingFloor, at: 1)
            try select.bind(due, at: 2)
            try select.bind(limit, at: 3)
            var batch: [StoredEvent] = []
            var bytes = 0
            while try select.step() {
                let size = select.int(14)
                if !batch.isEmpty, bytes + size > maxBytes { break }
                var row = Self.row(select)
                row.status = .inFlight
                batch.append(row)
                bytes += size
            }
            select.reset()
            guard let low = batch.first?.sequence, let high = batch.last?.sequence else { return [] }
            let mark = try database.cached(EventStoreSchema.markInFlight)
            try mark.bind(low, at: 1)
            try mark.bind(high, at: 2)
            try mark.bind(due, at: 3)
            try mark.step()
            let range = inFlight.values.reduce((low, high)) { (min($0.0, $1.sequence), max($0.1, $1.sequence)) }
            try setMetadata(EventStoreSchema.inFlightRangeKey, "\(range.0):\(range.1)", database)
            counts.pending -= batch.count
            counts.inFlight += batch.count
            return batch
        }
        lock.withLock { for row in claimed { inFlight[row.event.id] = (row.sequence, row.event.approximateSize) } }
        return claimed
    }

    /// Splits ids into rows in flight (with their `seq` and size) and the others.
    private func partition(_ ids: [UUID]) -> (inFlight: [(sequence: Int64, size: Int)], others: [UUID]) {
        var found: [(sequence: Int64, size: Int)] = []
        var others: [UUID] = []
        for id in ids {
            if let row = inFlight[id] { found.append(row) } else { others.append(id) }
        }
        return (found, others)
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
        guard !ids.isEmpty else { return }
        let keep = limits.deliveredHistory
        let deliveredAt = Self.milliseconds(deliveredAt)
        try write { database, counts in
            let (claimed, others) = partition(ids)
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
            let wholeRange = wholeInFlightRange(claimed)
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
        lock.withLock { for id in ids { inFlight[id] = nil } }
    }

    /// The `seq` range of `rows` when they are exactly the rows in flight through this store
    /// within it (so statements over the range touch no other in-flight row); `nil` otherwise.
    private func wholeInFlightRange(_ rows: [(sequence: Int64, size: Int)]) -> ClosedRange<Int64>? {
        guard rows.count > 1, let low = rows.map(\.sequence).min(), let high = rows.map(\.sequence).max() else { return nil }
        guard Set(rows.map(\.sequence)).count == rows.count else { return nil }
        let inRange = inFlight.values.reduce(0) { $0 + ((low...high).contains($1.sequence) ? 1 : 0) }
        return inRange == rows.count ? low...high : nil
    }

    /// Deletes the delivered history's oldest rows beyond the most recent `keep` (`newest` is the
    /// last `dseq` written; the history is numbered without gaps in delivery order).
    private func trimDeliveredHistory(_ database: SQLiteDatabase, newest: Int64, keeping keep: Int) throws {
        guard newest > Int64(keep) else { return }
        let trim = try database.cached(EventStoreSchema.trimDelivered)
        try trim.bind(newest - Int64(keep), at: 1)
        try trim.step()
    }

    /// Returns in-flight events to pending with one more attempt, `error` kept, due again at
    /// `nextAttemptAt`. Events not in flight are left alone.
    func scheduleRetry(_ ids: [UUID], nextAttemptAt: Date, error: String) throws {
        guard !ids.isEmpty else { return }
        try write { database, counts in
            let update = try database.cached(EventStoreSchema.retry)
            for row in partition(ids).inFlight {
                update.reset()
                try update.bind(Self.milliseconds(nextAttemptAt), at: 1)
                try update.bind(error, at: 2)
                try update.bind(row.sequence, at: 3)
                try update.step()
                let changed = database.changes
                counts.inFlight -= changed
                counts.pending += changed
            }
        }
        returnToPending(ids)
    }

    /// Moves every pending next-attempt time later than `latest` back to `latest`, so a retry
    /// scheduled while the clock was ahead waits no longer than the retry policy allows, and
    /// returns the earliest next attempt among the pending events not due at `now` (nil when
    /// none waits). Scans the pending rows once; returns at once when none is pending.
    func capRetryTimes(notAfter latest: Date, now: Date) throws -> Date? {
        guard counts().pending > 0 else { return nil }
        let cap = Self.milliseconds(latest)
        let due = Self.milliseconds(now)
        return try write { database, _ in
            let update = try database.cached(EventStoreSchema.capRetryTimes)
            update.reset()
            try update.bind(cap, at: 1)
            try update.bind(pendingFloor, at: 2)
            try update.bind(cap, at: 3)
            try update.step()
            let select = try database.cached(EventStoreSchema.earliestWaiting)
            select.reset()
            try select.bind(pendingFloor, at: 1)
            try select.bind(due, at: 2)
            defer { select.reset() }
            guard try select.step(), !select.isNull(0) else { return nil }
            return Self.date(select.int64(0))
        }
    }

    /// Records, in the `meta` table, that the collector asked (`Retry-After`) to be sent
    /// nothing before `date`.
    func holdDeliveries(until date: Date) throws {
        try setMetadata(EventStoreSchema.deliveryHoldKey, String(Self.milliseconds(date)))
    }

    /// The time recorded by ``holdDeliveries(until:)``; nil when none was (or it is unreadable).
    func deliveryHold() throws -> Date? {
        try metadata(EventStoreSchema.deliveryHoldKey).flatMap(Int64.init).map(Self.date)
    }

    /// Moves in-flight or pending events to rejected, counting an attempt and keeping `reason`.
    func reject(_ ids: [UUID], reason: String) throws {
        guard !ids.isEmpty else { return }
        try write { database, counts in
            let (claimed, others) = partition(ids)
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
        lock.withLock { for id in ids { inFlight[id] = nil } }
    }

    /// Returns in-flight events to pending without counting an attempt.
    func release(_ ids: [UUID]) throws {
        guard !ids.isEmpty else { return }
        try write { database, counts in
            let update = try database.cached(EventStoreSchema.release)
            for row in partition(ids).inFlight {
                update.reset()
                try update.bind(row.sequence, at: 1)
                try update.step()
                let changed = database.changes
                counts.inFlight -= changed
                counts.pending += changed
            }
        }
        returnToPending(ids)
    }

    /// Forgets ids as in flight and lowers the pending floor to their rows.
    private func returnToPending(_ ids: [UUID]) {
        lock.withLock {
            for id in ids {
                if let row = inFlight.removeValue(forKey: id) { pendingFloor = min(pendingFloor, row.sequence) }
            }
        }
    }

    /// Returns every in-flight event to pending (done on open: recovery from a crash mid-delivery).
    /// - Returns: how many were released.
    @discardableResult
    func releaseAllInFlight() throws -> Int {
        guard !isReadOnly else { throw readOnlyError }
        return try withDatabase { database in try releaseAllInFlightLocked(database) }
    }

    @discardableResult
    private func releaseAllInFlightLocked(_ database: SQLiteDatabase) throws -> Int {
        guard counters.inFlight > 0 || !inFlight.isEmpty else { return 0 }
        var next = counters
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
        counters = next
        inFlight = [:]
        pendingFloor = min(pendingFloor, range?.0 ?? 0)
        return released
    }

    // MARK: Reading and housekeeping

    /// What the store holds, without scanning it (re-read from the file when opened for reading,
    /// as another process may be changing it).
    func counts() -> StoreCounts {
        lock.withLock {
            if isReadOnly, let database, let fresh = try? readCounters(database) { counters = fresh }
            return counters
        }
    }

    /// Events matching `query`, in its order, one page.
    ///
    /// ``EventStatus/delivered`` reads the delivered history. With no status, the page runs over
    /// the events the store holds first, then over the delivered history, each part in the
    /// requested order (the store's part is counted from the counters, so paging stays cheap).
    ///
    /// On a store opened `readOnly`, the pending events that are still only in the journal
    /// beside it (`<path>.journal/`, after the position the ingest writer recorded; after a
    /// crash, until a writable open replays them) are part of the answer too, with status
    /// ``EventStatus/pending`` and ``StoredEvent/isInJournal``: for no status and for
    /// ``EventStatus/pending``, after the store's own events (and before the delivered history),
    /// de-duplicated by id. The journal is read without writing anything, when a query starts at
    /// offset 0; the pages after it reuse that reading.
    func query(_ query: StoreQuery) throws -> [StoredEvent] {
        try self.query(query, includingJournal: isReadOnly)
    }

    /// ``query(_:)``, with or without the events only in the journal beside the store.
    func query(_ query: StoreQuery, includingJournal: Bool) throws -> [StoredEvent] {
        guard query.limit > 0 else { return [] }
        if query.status == .delivered { return try page(query, table: .delivered, limit: query.limit, offset: query.offset) }
        let withJournal = includingJournal && (query.status == nil || query.status == .pending)
        let journal = withJournal ? try journalPart(query) : []
        let held = try page(query, table: .events, limit: query.limit, offset: query.offset)
        guard held.count < query.limit, query.status == nil || !journal.isEmpty else { return held }
        let counts = counts()
        let heldTotal = query.status == .pending ? counts.pending : counts.total
        let journalOffset = held.isEmpty ? max(0, query.offset - heldTotal) : 0
        // A live writer may have moved some of them into the store since the journal was read.
        let heldIDs = journal.isEmpty ? [] : Set(held.map(\.event.id))
        let fromJournal = Array(journal.dropFirst(journalOffset).prefix(query.limit - held.count)).filter { !heldIDs.contains($0.event.id) }
        guard query.status == nil, held.count + fromJournal.count < query.limit else { return held + fromJournal }
        let history = try page(query, table: .delivered, limit: query.limit - held.count - fromJournal.count,
                               offset: max(0, query.offset - heldTotal - journal.count))
        return held + fromJournal + history
    }

    /// How many events ``query(_:)`` would return for `query` with no limit and no offset.
    /// Reads the counters, the journal (on a store opened `readOnly`) and, for the delivered
    /// history, counts its rows.
    func count(matching query: StoreQuery) throws -> Int {
        let counts = counts()
        let journal = isReadOnly && (query.status == nil || query.status == .pending)
            ? try journalPart(StoreQuery(status: query.status)).count : 0
        let history = query.status == nil || query.status == .delivered
            ? try withDatabase { database in Int(try database.scalarInt("SELECT count(*) FROM delivered") ?? 0) } : 0
        return switch query.status {
        case nil: counts.total + journal + history
        case .pending: counts.pending + journal
        case .inFlight: counts.inFlight
        case .rejected: counts.rejected
        case .held: counts.held
        case .delivered: history
        }
    }

    /// The events only in the journal, in the query's order: read again when the query starts
    /// at offset 0 (or was never read), otherwise the last reading.
    private func journalPart(_ query: StoreQuery) throws -> [StoredEvent] {
        let cached = lock.withLock { query.offset == 0 ? nil : journalRows }
        let rows = try cached ?? readJournal()
        let ordered: [StoredEvent] = switch query.sort {
        case .category: rows.enumerated().sorted { ($0.element.event.category, $0.offset) < ($1.element.event.category, $1.offset) }.map(\.element)
        case .name: rows.enumerated().sorted { ($0.element.event.name, $0.offset) < ($1.element.event.name, $1.offset) }.map(\.element)
        case .createdAt, .status, .attempts: rows
        }
        return query.ascending ? ordered : ordered.reversed()
    }

    /// Reads the journal beside the store (writing nothing) after the ingest writer's recorded
    /// position, drops ids seen twice and ids the store already holds, and keeps the result.
    private func readJournal() throws -> [StoredEvent] {
        let position = try metadata(IngestWriter.positionKey).flatMap(JournalPosition.init) ?? .start
        var seen = Set<UUID>()
        let events = JournalReader.events(in: path + ".journal", after: position).filter { seen.insert($0.id).inserted }
        var stored = Set<UUID>()
        var start = 0
        while start < events.count {
            let ids = events[start..<min(events.count, start + 10_000)].map(\.id)
            start += ids.count
            let list = EventStoreSchema.literals(ids)
            try withDatabase { database in
                let select = try database.prepare(
                    "SELECT id FROM events WHERE id IN (\(list)) UNION ALL SELECT id FROM delivered WHERE id IN (\(list))")
                while try select.step() { if let id = select.uuid(0) { stored.insert(id) } }
            }
        }
        let rows = events.filter { !stored.contains($0.id) }.map { event in
            StoredEvent(sequence: 0, event: event, status: .pending, attempts: 0, createdAt: event.timestamp, isInJournal: true)
        }
        lock.withLock { journalRows = rows }
        return rows
    }

    /// The tables ``query(_:)`` reads.
    private enum Table {
        case events
        case delivered
    }

    /// One page of one table, filtered by the query's status when it reads `events`.
    private func page(_ query: StoreQuery, table: Table, limit: Int, offset: Int) throws -> [StoredEvent] {
        let column = switch query.sort {
        case .createdAt: "seq" // rows are numbered in the order they were persisted
        case .category: "category"
        case .name: "name"
        case .status: "status"
        case .attempts: "attempts"
        }
        let direction = query.ascending ? "ASC" : "DESC"
        let order = column == "seq" ? "seq \(direction)" : "\(column) \(direction), seq \(direction)"
        let sql = switch table {
        case .events:
            "SELECT \(EventStoreSchema.columns) FROM events \(query.status.map { "WHERE status = \(EventStoreSchema.code($0))" } ?? "") "
                + "ORDER BY \(order) LIMIT ? OFFSET ?"
        case .delivered:
            // `seq` can repeat across delivered rows (SQLite reuses the rowids of an emptied
            // table), so the persisted time comes first there.
            "SELECT \(EventStoreSchema.deliveredColumns) FROM delivered ORDER BY "
                + (column == "seq" ? "created_at \(direction), seq \(direction)" : order) + " LIMIT ? OFFSET ?"
        }
        return try withDatabase { database in
            let select = try database.cached(sql)
            try select.bind(limit, at: 1)
            try select.bind(offset, at: 2)
            var rows: [StoredEvent] = []
            while try select.step() { rows.append(Self.row(select)) }
            select.reset()
            return rows
        }
    }

    // MARK: Consent

    /// Makes the held events of a category deliverable: they become pending, and their stored
    /// flags lose `awaiting_consent` (the wire then shows no hold that no longer applies).
    /// Scans the store once.
    /// - Parameter category: the events' category.
    /// - Returns: how many were released.
    @discardableResult
    func releaseHeld(category: String) throws -> Int {
        try write { database, counts in
            let select = try database.cached(EventStoreSchema.heldInCategory)
            try select.bind(category, at: 1)
            var rows: [(sequence: Int64, flags: [UInt8], size: Int)] = []
            while try select.step() { rows.append((select.int64(0), select.bytes(1), select.int(2))) }
            select.reset()
            let update = try database.cached(EventStoreSchema.releaseHeld)
            var released = 0
            for row in rows {
                let flags = ConsentHold.released(row.flags)
                let size = row.size - row.flags.count + flags.count
                update.rewind()
                try update.bind(bytes: flags, at: 1)
                try update.bind(size, at: 2)
                try update.bind(row.sequence, at: 3)
                try update.step()
                guard database.changes == 1 else { continue }
                released += 1
                counts.held -= 1
                counts.pending += 1
                counts.bytes += size - row.size
                pendingFloor = min(pendingFloor, row.sequence)
            }
            return released
        }
    }

    /// Deletes the held events of a category (consent denied). Scans the store once.
    /// - Parameter category: the events' category.
    /// - Returns: how many were deleted.
    @discardableResult
    func deleteHeld(category: String) throws -> Int {
        try write { database, counts in
            let delete = try database.cached(EventStoreSchema.deleteHeld)
            try delete.bind(category, at: 1)
            var deleted = 0
            while try delete.step() {
                deleted += 1
                counts.held -= 1
                counts.bytes -= delete.int(0)
            }
            delete.reset()
            return deleted
        }
    }

    // MARK: Housekeeping

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
        try write { database, counts in
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
            if requeued > 0 { pendingFloor = min(pendingFloor, lowest) }
            return requeued
        }
    }

    /// Deletes every event, the delivered history and all metadata (identifiers included), resets the counters, and
    /// compacts the file so the deleted content does not linger in free pages.
    ///
    /// Keys starting with `_` are the store's own bookkeeping (such as the ingest writer's
    /// journal position, ``IngestWriter/positionKey``) and are kept, so that a restart does not
    /// replay purged events from the journal.
    func purge() throws {
        guard !isReadOnly else { throw readOnlyError }
        try withDatabase { database in
            let next = StoreCounts()
            try database.transaction {
                try database.execute("DELETE FROM events; DELETE FROM delivered; DELETE FROM meta WHERE substr(key, 1, 1) <> '_'")
                try writeCounters(next, database)
            }
            counters = next
            inFlight = [:]
            recentIDs.removeAll(keepingCapacity: true)
            olderIDs = []
            pendingFloor = 0
            try database.execute("VACUUM")
            _ = try database.scalarInt("PRAGMA wal_checkpoint(TRUNCATE)")
        }
    }

    /// The value stored under `key` in the `meta` table (installation id and the like).
    func metadata(_ key: String) throws -> String? {
        try withDatabase { database in try readMetadata(key, database) }
    }

    private func readMetadata(_ key: String, _ database: SQLiteDatabase) throws -> String? {
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

    private func setMetadata(_ key: String, _ value: String?, _ database: SQLiteDatabase) throws {
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
        lock.withLock {
            closedByUser = true
            database?.close()
            database = nil
            writerLock?.release()
            writerLock = nil
        }
    }

    /// Limits the file to `pages` pages, so writes beyond fail as if the disk were full (tests).
    func limitPages(_ pages: Int) throws {
        try withDatabase { database in try database.setMaxPageCount(pages) }
    }

    // MARK: Rows

    static func milliseconds(_ date: Date) -> Int64 { Int64((date.timeIntervalSince1970 * 1000).rounded(.down)) }

    private static func date(_ milliseconds: Int64) -> Date { Date(timeIntervalSince1970: Double(milliseconds) / 1000) }

    /// Reads a row selected with ``EventStoreSchema/columns``.
    private static func row(_ statement: SQLiteStatement) -> StoredEvent {
        let event = EncodedEvent(
            id: statement.uuid(1) ?? UUID(uuid: (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)),
            timestampMilliseconds: statement.int64(2),
            category: statement.string(3) ?? "",
            name: statement.string(4) ?? "",
            action: statement.string(5) ?? "",
            userDataJSON: statement.bytes(6),
            contextJSON: statement.bytes(7),
            flagsJSON: statement.bytes(8)
        )
        let next = statement.int64(12)
        return StoredEvent(
            sequence: statement.int64(0),
            event: event,
            status: EventStoreSchema.status(statement.int64(9)),
            attempts: statement.int(10),
            createdAt: date(statement.int64(11)),
            nextAttemptAt: next > 0 ? date(next) : nil,
            lastError: statement.string(13)
        )
    }
}
