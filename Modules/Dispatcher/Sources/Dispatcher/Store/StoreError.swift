import Foundation

/// Why the event store could not do what was asked. Every case carries the file and its cause
/// (for a SQLite failure, SQLite's message and result code, as text).
public enum StoreError: Error, Sendable, CustomStringConvertible {
    /// The store file or its folder could not be created or opened (missing or read-only folder,
    /// a path through a regular file, permissions). `errno` is the system error when known.
    case cannotOpen(path: String, reason: String, errno: Int32?)
    /// The folder or file is read-only: nothing can be written.
    case readOnly(path: String, cause: String)
    /// The disk (or the configured size limit) is full.
    case diskFull(path: String, cause: String)
    /// The file is damaged or not a database. It has been set aside as `setAsidePath` (when
    /// renaming worked) and a fresh store opened in its place.
    case corrupt(path: String, setAsidePath: String?, cause: String)
    /// The file at `path` exists but is not an event store: it lacks the store's signature (a
    /// text file, random bytes, another application's database; `reason` says which). It was
    /// left untouched: not opened for writing, renamed or replaced.
    case notAStore(path: String, reason: String)
    /// The store was closed.
    case closed(path: String)
    /// Another writer (process `pid`, when known) has the store open: two writers on one store
    /// would claim and count the same rows, so the second is refused. Readers are not affected.
    case inUse(path: String, pid: Int32?)
    /// Any other SQLite failure.
    case sqlite(path: String, cause: String)
    /// A deletion for privacy (purge, opt-out, a denial) could not reach every event: some were
    /// still only in the journal, which the store did not take in time (it was locked or
    /// failing). What the store held was deleted; call again once the store works.
    case notErased(path: String, cause: String)

    /// Classifies a SQLite error met while working on `path`.
    static func from(_ error: SQLiteError, path: String) -> StoreError {
        if let exhaustion = error.resourceExhaustion {
            return .cannotOpen(path: path, reason: "\(exhaustion): \(error.description)",
                              errno: error.systemErrno == 0 ? ENOMEM : error.systemErrno)
        }
        return switch error.code {
        case SQLiteError.readOnly, SQLiteError.permission, SQLiteError.cannotOpen, SQLiteError.authorization:
            .readOnly(path: path, cause: error.description)
        case SQLiteError.full: .diskFull(path: path, cause: error.description)
        case SQLiteError.corrupt, SQLiteError.notADatabase: .corrupt(path: path, setAsidePath: nil, cause: error.description)
        default: .sqlite(path: path, cause: error.description)
        }
    }

    /// A readable sentence: what happened, to which file, and why.
    public var description: String {
        switch self {
        case let .cannotOpen(path, reason, code):
            "cannot open store \(path): \(reason)" + (code.map { " (errno \($0))" } ?? "")
        case let .readOnly(path, cause): "store \(path) is read-only: \(cause)"
        case let .diskFull(path, cause): "disk full while writing store \(path): \(cause)"
        case let .corrupt(path, setAside, cause):
            "store \(path) was corrupt (\(cause))" + (setAside.map { "; set aside as \($0)" } ?? "")
        case let .notAStore(path, reason):
            "\(path) is not an event store (no store signature: \(reason)); left untouched"
        case let .closed(path): "store \(path) is closed"
        case let .inUse(path, pid): "store in use by process \(pid.map(String.init) ?? "unknown"): \(path) has another writer; use one store per process"
        case let .sqlite(path, cause): "store \(path): \(cause)"
        case let .notErased(path, cause):
            "not every event was erased from store \(path): \(cause); what the store held was deleted, call again once it works"
        }
    }
}
