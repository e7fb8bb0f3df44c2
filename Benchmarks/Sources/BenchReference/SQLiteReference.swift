import CSQLiteReference
import Foundation

/// Plain SQLite inserts, the reference the ingest benchmark is measured against.
///
/// It talks to the system's libsqlite3 directly, not through the Dispatcher's store, so that
/// the reference measures SQLite alone.
public enum SQLiteReference {
    /// `SQLITE_TRANSIENT`: SQLite copies the bytes, as the Dispatcher's statement wrapper has it do.
    private static let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)

    /// Inserts `count` rows of about `rowBytes` bytes into a fresh table, with one prepared
    /// statement, in transactions of `batch` rows, WAL and `synchronous = NORMAL`.
    /// - Parameters:
    ///   - count: rows to insert.
    ///   - rowBytes: the size of each row's payload blob.
    ///   - batch: rows per transaction.
    ///   - path: the database file; removed first if it exists.
    /// - Returns: rows inserted per second.
    /// - Throws: ``SQLiteReferenceError`` when SQLite refuses a step.
    public static func insertRows(count: Int, rowBytes: Int, batch: Int, path: String) throws -> Double {
        for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) }
        var handle: OpaquePointer?
        let opened = sqlite3_open_v2(path, &handle, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX, nil)
        defer { sqlite3_close_v2(handle) }
        guard opened == SQLITE_OK, let database = handle else { throw SQLiteReferenceError(step: "open \(path)", code: opened) }
        sqlite3_busy_timeout(database, 5_000)
        func execute(_ sql: String) throws {
            let code = sqlite3_exec(database, sql, nil, nil, nil)
            guard code == SQLITE_OK else { throw SQLiteReferenceError(step: sql, code: code) }
        }
        try execute("PRAGMA journal_mode = WAL")
        try execute("PRAGMA synchronous = NORMAL")
        try execute("CREATE TABLE rows (seq INTEGER PRIMARY KEY, payload BLOB NOT NULL)")
        var prepared: OpaquePointer?
        let sql = "INSERT INTO rows (payload) VALUES (?)"
        let preparedCode = sqlite3_prepare_v2(database, sql, -1, &prepared, nil)
        defer { sqlite3_finalize(prepared) }
        guard preparedCode == SQLITE_OK, let statement = prepared else { throw SQLiteReferenceError(step: sql, code: preparedCode) }
        let payload = [UInt8](repeating: 0x61, count: max(0, rowBytes))
        let batchSize = max(1, batch)
        let start = DispatchTime.now().uptimeNanoseconds
        var inserted = 0
        while inserted < count {
            let end = min(count, inserted + batchSize)
            try execute("BEGIN IMMEDIATE")
            for _ in inserted..<end {
                sqlite3_reset(statement)
                let bound = payload.withUnsafeBytes { bytes in
                    sqlite3_bind_blob(statement, 1, bytes.baseAddress ?? UnsafeRawPointer(bitPattern: 1), Int32(bytes.count), transient)
                }
                guard bound == SQLITE_OK else { throw SQLiteReferenceError(step: "bind", code: bound) }
                let stepped = sqlite3_step(statement)
                guard stepped == SQLITE_DONE else { throw SQLiteReferenceError(step: sql, code: stepped) }
            }
            try execute("COMMIT")
            inserted = end
        }
        let seconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
        return Double(count) / max(seconds, 1e-9)
    }
}
