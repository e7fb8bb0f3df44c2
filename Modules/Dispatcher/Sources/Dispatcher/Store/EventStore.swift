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
    let lock = NSLock()
    var database: SQLiteDatabase?
    var counters = StoreCounts()
    var recovered: String?
    var closedByUser = false
    /// The writer's claim on the store; `nil` when opened for reading.
    var writerLock: StoreLock?
    /// No pending row has a `seq` below this.
    var pendingFloor: Int64 = 0
    /// The rows in flight claimed through this store: id → seq and size.
    var inFlight: [UUID: (sequence: Int64, size: Int)] = [:]
    /// Keys of ids inserted recently (two generations), to ignore duplicates without an index.
    var recentIDs = KeySet(minimumCapacity: EventStore.duplicateWindow)
    var olderIDs: KeySet = []
    /// The shared contexts known to be in `contexts` (committed by this store, or read back),
    /// by hash: each is written once and read from `contexts` at most once.
    var contextCache: [UInt64: [UInt8]] = [:]
    /// Whether `events` has a unique index on `id` (a version 1 file): an insert may then ignore
    /// a row, so rows go in one statement each, each checked.
    var idsAreUnique = false
    /// The last reading of the events only in the journal (see ``query(_:)``).
    var journalRows: [StoredEvent]?
    /// Data protection that could not be applied to the store's files since last taken.
    var protectionProblems: [String] = []
    /// The store file and its write-ahead log as opened (see ``recreateIfVanished()``).
    var openedFiles: (store: FileIdentity?, log: FileIdentity?) = (nil, nil)

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
            if !folder.isEmpty { protectionProblems += try FileProtection.createDirectory(atPath: folder) }
            var isFolder: ObjCBool = false
            if path.isEmpty || (FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) && isFolder.boolValue) {
                throw StoreError.cannotOpen(path: path, reason: "the store path must name a file, not a folder", errno: EISDIR)
            }
            // A device, a FIFO or a symbolic link (to anything) is refused before anything is
            // created, locked or changed; so are such companions of the store.
            for file in [path, path + "-wal", path + "-shm"] { try RegularFile.require(file) }
            switch EventStoreSignature.classify(path) {
            case .foreign(let reason): throw StoreError.notAStore(path: path, reason: reason)
            case .unreadable(let code): throw StoreError.cannotOpen(path: path, reason: "cannot read the store file: \(FileProtection.describe(code))", errno: code)
            case .new, .own: break
            }
            writerLock = try StoreLock(storePath: path)
            if let problem = writerLock?.protectionProblem { protectionProblems.append(problem) }
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

    /// The data protection problems met since the last call (the caller reports them), emptied.
    func takeProtectionProblems() -> [String] {
        lock.withLock {
            defer { protectionProblems.removeAll() }
            return protectionProblems
        }
    }
}
