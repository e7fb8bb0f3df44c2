import Foundation
import Tracking

/// The Dispatcher's persistent queue: one SQLite file (WAL, `synchronous = NORMAL`, mode 0600)
/// of pending, in-flight, rejected and held events, a `meta` table, and a bounded history of
/// delivered events for the monitor.
///
/// - Events leave only by ``acknowledge(_:)``, ``deleteRejected()``, ``deleteHeld(category:)``,
///   ``purge()``, or eviction of the oldest *pending* ones past ``StoreLimits`` (counted).
/// - A held event (`awaiting_consent`) is never claimed or evicted until released or deleted.
/// - Duplicate ids are ignored only within the last 32,768–65,536 inserted by this process.
/// - A file that is not a store of this project is refused and left untouched
///   (``StoreError/notAStore(path:reason:)``); a damaged store is set aside (``recoveredFrom``).
///
/// Thread-safe: every call takes the store's lock (``state``) once for its duration.
final class EventStore: DeliveryQueue, Sendable {
    /// Everything an operation reads or changes, reached only through the store's lock.
    struct State: Sendable {
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
        /// It starts small and grows with what is inserted: 512 KB zeroed up front would cost a
        /// store that opens for one event more than the rest of its opening.
        var recentIDs: KeySet = []
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
    }

    /// The store's lock and the state it guards.
    let state = LockedValue(State())

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
    /// - Parameter claim: the writer's claim taken beforehand (``claim(path:)``), used instead of
    ///   taking one here; it is released when opening fails.
    init(path: String, limits: StoreLimits = StoreLimits(), readOnly: Bool = false, claim: StoreClaim? = nil) throws {
        self.path = path
        self.limits = limits
        self.isReadOnly = readOnly
        try state.withLock { state in
            if readOnly { return try openForReadingLocked(&state) }
            let claim = try claim ?? Self.claim(path: path)
            state.writerLock = claim.lock
            state.protectionProblems += claim.protectionProblems
            do { try openLocked(&state) } catch {
                claim.lock.release()
                state.writerLock = nil
                throw error
            }
        }
    }

    /// Checks that `path` can hold a store of this project's and takes the writer's claim on it:
    /// the cheap part of opening (a few system calls, no SQLite), which refuses what opening
    /// would refuse for good. Makes the store's folder when missing.
    /// - Throws: ``StoreError/inUse(path:pid:)``, ``StoreError/notAStore(path:reason:)``, or
    ///   ``StoreError/cannotOpen(path:reason:errno:)`` (a folder, a link, an unreadable file).
    static func claim(path: String) throws -> StoreClaim {
        var problems: [String] = []
        let folder = StorePath.folder(of: path)
        if !folder.isEmpty { problems += try FileProtection.createDirectory(atPath: folder) }
        if path.isEmpty || FileProtection.isFolder(path) == true {
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
        let lock = try StoreLock(storePath: path)
        if let problem = lock.protectionProblem { problems.append(problem) }
        return StoreClaim(lock: lock, protectionProblems: problems)
    }

    deinit {
        state.withLock { state in
            state.database?.close()
            state.writerLock?.release()
        }
    }

    /// The path a damaged store file was renamed to when this store was opened (or later, when
    /// damage was found during an operation); `nil` when no recovery happened.
    var recoveredFrom: String? { state.withLock { $0.recovered } }

    /// The data protection problems met since the last call (the caller reports them), emptied.
    func takeProtectionProblems() -> [String] {
        state.withLock { state in
            defer { state.protectionProblems.removeAll() }
            return state.protectionProblems
        }
    }
}
