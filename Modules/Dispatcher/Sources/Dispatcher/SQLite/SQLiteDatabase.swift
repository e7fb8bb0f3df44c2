import CSQLite
import Foundation

/// A thin wrapper around one SQLite connection: open, execute, prepared and cached statements,
/// transactions, and the WAL set-up every store uses.
///
/// Not thread-safe by itself: the connection is opened in SQLite's multi-thread mode (no SQLite
/// mutex of its own), and its owner (``EventStore``) keeps it in its `LockedValue` state.
final class SQLiteDatabase: @unchecked Sendable {
    // Unchecked: `handle` is a SQLite C connection (and `cache` its statements), not Sendable;
    // shared only inside the owner's `LockedValue`, one call at a time.
    private var handle: OpaquePointer?
    private var cache: [String: SQLiteStatement] = [:]
    /// The database file.
    let path: String

    /// How to open the file.
    struct OpenFlags: OptionSet, Sendable {
        /// The raw `SQLITE_OPEN_*` bits.
        var rawValue: Int32
        /// Creates flags from raw bits.
        init(rawValue: Int32) { self.rawValue = rawValue }
        /// Open for reading only.
        static let readOnly = OpenFlags(rawValue: SQLITE_OPEN_READONLY)
        /// Open for reading and writing.
        static let readWrite = OpenFlags(rawValue: SQLITE_OPEN_READWRITE)
        /// Create the file when missing (with ``readWrite``).
        static let create = OpenFlags(rawValue: SQLITE_OPEN_CREATE)
        /// No SQLite mutex: the caller serialises access.
        static let noMutex = OpenFlags(rawValue: SQLITE_OPEN_NOMUTEX)
        /// The path is a `file:` URI (see ``SQLiteDatabase/readOnlyURI(_:)``).
        static let uri = OpenFlags(rawValue: SQLITE_OPEN_URI)
        /// The iOS-family data protection class of the file and of the `-wal`/`-shm`/`-journal`
        /// files SQLite creates: `completeUntilFirstUserAuthentication`, readable in the
        /// background once the device was unlocked after boot. Debian's `sqlite3.h` has no
        /// `SQLITE_OPEN_FILEPROTECTION_*` (Apple's SDK has): no bits elsewhere.
        static var protectedUntilFirstUnlock: OpenFlags {
            #if os(iOS) || os(tvOS) || os(watchOS) || os(visionOS)
            OpenFlags(rawValue: SQLITE_OPEN_FILEPROTECTION_COMPLETEUNTILFIRSTUSERAUTHENTICATION)
            #else
            []
            #endif
        }
        /// Read-write, created when missing, protected until the first unlock, serialised by the caller.
        static var standard: OpenFlags { [.readWrite, .create, .noMutex, .protectedUntilFirstUnlock] }
    }

    /// Opens (and with ``OpenFlags/create`` creates) a database file.
    /// - Parameters:
    ///   - path: the file.
    ///   - flags: how to open it.
    ///   - busyTimeout: how long to wait for another connection's lock, in milliseconds.
    init(path: String, flags: OpenFlags = .standard, busyTimeout: Int32 = 5_000) throws(SQLiteError) {
        self.path = path
        var connection: OpaquePointer?
        let result = sqlite3_open_v2(path, &connection, flags.rawValue | SQLITE_OPEN_EXRESCODE, nil)
        guard result == SQLITE_OK, let connection else {
            let error = connection.map { Self.error($0, code: result, sql: nil) }
                ?? SQLiteError(extendedCode: result, message: String(cString: sqlite3_errstr(result)))
            sqlite3_close_v2(connection)
            throw error
        }
        handle = connection
        sqlite3_busy_timeout(connection, busyTimeout)
    }

    deinit { close() }

    /// A `file:` URI for `path` that a reader opens with ``OpenFlags/uri`` and
    /// ``OpenFlags/readOnly`` to create or change no file at all, decided when it is made:
    /// - while a write-ahead log index (`-shm`) exists (a writer is live, or was killed):
    ///   `mode=ro&readonly_shm=1`: the index is only read (after a crash SQLite rebuilds it in
    ///   private memory instead), so the reader sees what the writer committed;
    /// - when neither `-shm` nor `-wal` exists (the last writer closed cleanly): `immutable=1`,
    ///   as a plain read-only connection would create both files. Such a reader sees the file as
    ///   it is while no writer opens it (a writer that opens it later is not seen).
    /// - otherwise (a `-wal` without its index): `mode=ro`.
    static func readOnlyURI(_ path: String) -> String {
        let escaped = path.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed) ?? path
        let files = FileManager.default
        if files.fileExists(atPath: path + "-shm") { return "file:\(escaped)?mode=ro&readonly_shm=1" }
        if !files.fileExists(atPath: path + "-wal") { return "file:\(escaped)?mode=ro&immutable=1" }
        return "file:\(escaped)?mode=ro"
    }

    /// Whether the connection is open.
    var isOpen: Bool { handle != nil }

    /// Closes the connection (idempotent). Cached statements are finalised first.
    func close() {
        cache.removeAll()
        if let handle { sqlite3_close_v2(handle) }
        handle = nil
    }

    static func error(_ database: OpaquePointer, code: Int32, sql: String?) -> SQLiteError {
        let extended = sqlite3_extended_errcode(database)
        // The connection's error may belong to an older call when `code` came from elsewhere.
        let useExtended = extended & 0xFF == code & 0xFF
        return SQLiteError(
            extendedCode: useExtended ? extended : code,
            message: useExtended ? String(cString: sqlite3_errmsg(database)) : String(cString: sqlite3_errstr(code)),
            sql: sql, systemErrno: sqlite3_system_errno(database)
        )
    }

    private func connection(sql: String?) throws(SQLiteError) -> OpaquePointer {
        guard let handle else { throw SQLiteError(extendedCode: SQLiteError.misuse, message: "database is closed", sql: sql) }
        return handle
    }

    /// Runs one or more SQL statements that return no rows of interest.
    func execute(_ sql: String) throws(SQLiteError) {
        let database = try connection(sql: sql)
        var message: UnsafeMutablePointer<CChar>?
        let result = sqlite3_exec(database, sql, nil, nil, &message)
        if result != SQLITE_OK {
            let text = message.map { String(cString: $0) } ?? String(cString: sqlite3_errstr(result))
            sqlite3_free(message)
            throw SQLiteError(extendedCode: sqlite3_extended_errcode(database), message: text, sql: sql,
                              systemErrno: sqlite3_system_errno(database))
        }
    }

    /// Prepares a statement that the caller owns.
    func prepare(_ sql: String) throws(SQLiteError) -> SQLiteStatement {
        try SQLiteStatement(database: connection(sql: sql), sql: sql)
    }

    /// A prepared statement reused across calls, reset and with its bindings cleared.
    func cached(_ sql: String) throws(SQLiteError) -> SQLiteStatement {
        if let statement = cache[sql] {
            statement.reset()
            return statement
        }
        let statement = try prepare(sql)
        cache[sql] = statement
        return statement
    }

    /// Runs a query and returns the first column of its first row as text.
    func scalarText(_ sql: String) throws(SQLiteError) -> String? {
        let statement = try prepare(sql)
        return try statement.step() ? statement.string(0) : nil
    }

    /// Runs a query and returns the first column of its first row as an integer.
    func scalarInt(_ sql: String) throws(SQLiteError) -> Int64? {
        let statement = try prepare(sql)
        return try statement.step() ? statement.int64(0) : nil
    }

    /// The rowid of the last row inserted on this connection.
    var lastInsertRowID: Int64 { handle.map { sqlite3_last_insert_rowid($0) } ?? 0 }

    /// Rows changed by the last INSERT, UPDATE or DELETE.
    var changes: Int { handle.map { Int(sqlite3_changes($0)) } ?? 0 }

    /// Runs `body` in a transaction (`BEGIN IMMEDIATE`), committed when it returns and rolled back
    /// when it throws.
    func transaction<Result>(_ body: () throws -> Result) throws -> Result {
        try execute("BEGIN IMMEDIATE")
        do {
            let result = try body()
            try execute("COMMIT")
            return result
        } catch {
            if let handle, sqlite3_get_autocommit(handle) == 0 { try? execute("ROLLBACK") }
            throw error
        }
    }

    /// Switches to write-ahead logging and checks that SQLite agreed, sets `synchronous = NORMAL`.
    /// - Throws: ``SQLiteError`` when the journal mode is not `wal` afterwards.
    func enableWriteAheadLog() throws(SQLiteError) {
        let mode = try scalarText("PRAGMA journal_mode = WAL")
        guard mode?.lowercased() == "wal" else {
            throw SQLiteError(extendedCode: SQLiteError.error,
                              message: "journal_mode is \(mode ?? "unknown"), expected wal", sql: "PRAGMA journal_mode = WAL")
        }
        try execute("PRAGMA synchronous = NORMAL")
    }

    /// The current journal mode (`wal`, `delete`, …).
    func journalMode() throws(SQLiteError) -> String? { try scalarText("PRAGMA journal_mode") }

    /// The version of the SQLite library in use.
    static var libraryVersion: String { String(cString: sqlite3_libversion()) }

    /// Limits the database to `pages` pages (writes beyond fail with ``SQLiteError/full``).
    func setMaxPageCount(_ pages: Int) throws(SQLiteError) {
        _ = try scalarInt("PRAGMA max_page_count = \(pages)")
    }
}
