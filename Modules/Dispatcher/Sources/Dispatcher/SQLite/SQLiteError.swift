import Foundation

/// An error reported by SQLite: the result codes, SQLite's message and the statement that failed.
///
/// Match on the primary code with the static constants:
///
/// ```swift
/// catch let error as SQLiteError where error.code == SQLiteError.full { … }
/// ```
struct SQLiteError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The primary result code (`SQLITE_BUSY`, `SQLITE_CORRUPT`, …), the low byte of ``extendedCode``.
    var code: Int32 { extendedCode & 0xFF }
    /// The extended result code, for example `SQLITE_IOERR_WRITE`.
    var extendedCode: Int32
    /// SQLite's message for the error.
    var message: String
    /// The SQL that failed, if any.
    var sql: String?
    /// The system `errno` behind a failed file operation (`sqlite3_system_errno`), 0 when none.
    var systemErrno: Int32

    /// Creates an error.
    init(extendedCode: Int32, message: String, sql: String? = nil, systemErrno: Int32 = 0) {
        self.extendedCode = extendedCode
        self.message = message
        self.sql = sql
        self.systemErrno = systemErrno
    }

    /// A sentence naming the process limit that ran out behind this error
    /// (`out of file descriptors (RLIMIT_NOFILE = 8)`), or `nil`.
    var resourceExhaustion: String? {
        guard code == Self.cannotOpen || code == Self.ioError || code == Self.noMemory || code == Self.full else { return nil }
        return ResourceLimit.exhaustion(code == Self.noMemory && systemErrno == 0 ? ENOMEM : systemErrno)
    }

    /// `SQLITE_ERROR`: a generic error (bad SQL, missing table).
    static let error: Int32 = 1
    /// `SQLITE_PERM`: access permission denied.
    static let permission: Int32 = 3
    /// `SQLITE_BUSY`: the database file is locked.
    static let busy: Int32 = 5
    /// `SQLITE_NOMEM`: an allocation failed.
    static let noMemory: Int32 = 7
    /// `SQLITE_READONLY`: an attempt to write a read-only database.
    static let readOnly: Int32 = 8
    /// `SQLITE_IOERR`: a disk I/O error.
    static let ioError: Int32 = 10
    /// `SQLITE_CORRUPT`: the database disk image is malformed.
    static let corrupt: Int32 = 11
    /// `SQLITE_FULL`: the disk (or the configured page limit) is full.
    static let full: Int32 = 13
    /// `SQLITE_CANTOPEN`: the file could not be opened.
    static let cannotOpen: Int32 = 14
    /// `SQLITE_AUTH`: access denied (on iOS, a protected file before the first unlock).
    static let authorization: Int32 = 23
    /// `SQLITE_CONSTRAINT`: a constraint was violated.
    static let constraint: Int32 = 19
    /// `SQLITE_MISUSE`: the library was used incorrectly.
    static let misuse: Int32 = 21
    /// `SQLITE_NOTADB`: the file is not a database.
    static let notADatabase: Int32 = 26

    /// Whether the file is damaged or is not a database at all (`SQLITE_CORRUPT`, `SQLITE_NOTADB`).
    var isCorruption: Bool { code == Self.corrupt || code == Self.notADatabase }

    /// `SQLite error 13 (extended 13): database or disk is full — in INSERT …`.
    var description: String {
        var text = "SQLite error \(code)"
        if extendedCode != code { text += " (extended \(extendedCode))" }
        text += ": \(message)"
        if let sql { text += " — in \(sql)" }
        return text
    }
}
