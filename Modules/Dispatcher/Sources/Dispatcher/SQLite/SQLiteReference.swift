import Foundation

/// Plain SQLite inserts, the reference the ingest benchmark is measured against.
public enum SQLiteReference {
    /// Inserts `count` rows of about `rowBytes` bytes into a fresh table, with one prepared
    /// statement, in transactions of `batch` rows, WAL and `synchronous = NORMAL`.
    /// - Parameters:
    ///   - count: rows to insert.
    ///   - rowBytes: the size of each row's payload blob.
    ///   - batch: rows per transaction.
    ///   - path: the database file; removed first if it exists.
    /// - Returns: rows inserted per second.
    public static func insertRows(count: Int, rowBytes: Int, batch: Int, path: String) throws -> Double {
        for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) }
        let database = try SQLiteDatabase(path: path)
        defer { database.close() }
        try database.enableWriteAheadLog()
        try database.execute("CREATE TABLE rows (seq INTEGER PRIMARY KEY, payload BLOB NOT NULL)")
        let statement = try database.prepare("INSERT INTO rows (payload) VALUES (?)")
        let payload = [UInt8](repeating: 0x61, count: max(0, rowBytes))
        let batchSize = max(1, batch)
        let start = DispatchTime.now().uptimeNanoseconds
        var inserted = 0
        while inserted < count {
            let end = min(count, inserted + batchSize)
            try database.transaction {
                for _ in inserted..<end {
                    statement.reset()
                    try statement.bind(bytes: payload, at: 1)
                    try statement.step()
                }
            }
            inserted = end
        }
        let seconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
        return Double(count) / max(seconds, 1e-9)
    }
}
