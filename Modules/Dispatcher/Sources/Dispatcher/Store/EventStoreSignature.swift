import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Tells an event store file from any other file before the store touches it, by SQLite's
/// `PRAGMA application_id` (``applicationID``, set on every store this project creates):
/// - ``Kind/new``: missing, empty, or a SQLite database with no schema, no id and no logged frame
///   (a store is built beside it and renamed over it);
/// - ``Kind/own``: this id, or an older store of this project (id 0 with an `events` table, or a
///   known `user_version`), or a database with no table at all; opened, and stamped when writable;
/// - ``Kind/foreign``: anything else, refused and left untouched.
enum EventStoreSignature {
    /// This project's SQLite `application_id`: "TRKQ", the tracking queue.
    static let applicationID: Int32 = 0x5452_4B51

    /// What a file at a store path is.
    enum Kind: Equatable {
        /// Missing, empty, or a SQLite database with nothing in it: a new store.
        case new
        /// A store of this project (perhaps damaged past its header).
        case own
        /// Not a store: never opened, renamed or written.
        case foreign(reason: String)
        /// Present but not readable now (`errno`): on iOS, a protected file before the first
        /// unlock (`EPERM`). Opening is retried later; the file is left untouched.
        case unreadable(errno: Int32)
    }

    /// The 16 bytes every SQLite database starts with.
    private static let sqliteMagic = Array("SQLite format 3\0".utf8)

    /// Classifies the file at `path` by reading its header (and, when the header alone cannot
    /// tell, by a read-only SQLite connection, which sees the write-ahead log). Writes nothing.
    static func classify(_ path: String) -> Kind {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else {
            let code = errno
            return code == ENOENT || code == ENOTDIR ? .new : .unreadable(errno: code)
        }
        defer { close(descriptor) }
        var info = stat()
        guard fstat(descriptor, &info) == 0 else { return .new }
        if Int(info.st_size) == 0 { return .new }
        var header = [UInt8](repeating: 0, count: 100)
        let count = header.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, 100, 0) }
        if count < 0 { return .unreadable(errno: errno) }
        guard count == 100, Array(header[0..<16]) == sqliteMagic else {
            return .foreign(reason: "not a SQLite database")
        }
        func bigEndian(_ offset: Int) -> Int32 {
            Int32(bitPattern: header[offset..<offset + 4].reduce(UInt32(0)) { $0 << 8 | UInt32($1) })
        }
        let identifier = bigEndian(68)
        if identifier == applicationID { return .own }
        if identifier != 0 { return .foreign(reason: "a SQLite database of another application (application_id \(identifier))") }
        // No schema in the file (cookie 0, version 0) and no frame in its log: nothing at all.
        if bigEndian(40) == 0, bigEndian(60) == 0, !hasLogFrames(path) { return .new }
        return probe(path, headerVersion: Int64(bigEndian(60)))
    }

    /// Whether `<path>-wal` holds more than its 32-byte header, i.e. at least one frame.
    private static func hasLogFrames(_ path: String) -> Bool {
        var info = stat()
        return stat(path + "-wal", &info) == 0 && Int(info.st_size) > 32
    }

    /// Asks SQLite, read-only, for what the main file's header may not show yet (a store whose
    /// first transactions are still only in its write-ahead log).
    /// A file of an older version of this project has the `events` table; one whose schema
    /// cannot be read counts as such when its header has the schema's `user_version`.
    private static func probe(_ path: String, headerVersion: Int64) -> Kind {
        let ownVersion = (1...EventStoreSchema.version).contains(headerVersion)
        guard let database = try? SQLiteDatabase(path: SQLiteDatabase.readOnlyURI(path), flags: [.readOnly, .noMutex, .uri]) else {
            return ownVersion ? .own : .foreign(reason: "a SQLite database that cannot be read")
        }
        defer { database.close() }
        let identifier: Int64
        let hasEvents: Bool
        let isEmpty: Bool
        do {
            identifier = try database.scalarInt("PRAGMA application_id") ?? 0
            hasEvents = try database.scalarInt("SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = 'events'") ?? 0 > 0
            isEmpty = try database.scalarInt("SELECT count(*) FROM sqlite_master") ?? 0 == 0
        } catch {
            return ownVersion ? .own : .foreign(reason: "a SQLite database that cannot be read (\(error))")
        }
        if identifier == Int64(applicationID) { return .own }
        if identifier == 0, hasEvents || isEmpty { return .own }
        if identifier != 0 { return .foreign(reason: "a SQLite database of another application (application_id \(identifier))") }
        return .foreign(reason: "a SQLite database without the event store's tables")
    }
}
