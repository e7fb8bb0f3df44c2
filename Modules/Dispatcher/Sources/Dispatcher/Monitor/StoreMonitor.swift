import Foundation

/// A read-only view of an event store, for a monitor: what the store holds, as
/// ``MonitorRecord``s and ``StoreCounts``, with nothing written.
///
/// It may look at a store a running app is using: it takes no writer's lock, creates no file
/// (not even SQLite's `-wal` and `-shm`), and re-reads the counts on each call. Events still only
/// in the journal beside the store (after a crash) are listed as pending, with
/// ``MonitorRecord/inJournal`` set.
public final class StoreMonitor: Sendable {
    private let store: EventStore
    /// The store file.
    private let path: String

    /// Opens the store at `storePath` for reading only.
    /// - Throws: ``StoreError/cannotOpen(path:reason:errno:)`` for a missing or empty file,
    ///   ``StoreError/notAStore(path:reason:)`` for a file that is not an event store, and
    ///   ``StoreError/corrupt(path:setAsidePath:cause:)`` for a damaged store.
    public init(storePath: String) throws {
        path = storePath
        var attempt = 0
        while true {
            attempt += 1
            let before = StoreFileState(path: storePath)
            do {
                store = try EventStore(path: storePath, limits: .unlimited, readOnly: true)
                return
            } catch let error as StoreError where attempt < 5 && !before.hasLog && StoreFileState(path: storePath) != before {
                // Read with no lock while a writer opened the store: what it found says nothing.
                _ = error
            }
        }
    }

    /// Hands every event matching `query` (at most `limit`; its own limit and offset are ignored)
    /// to `write`, `pageSize` at a time, all from one consistent state of the store: each id
    /// exactly once, even while another process writes to it (see ``records(_:)`` for the
    /// journal's events). Nothing is written or created.
    ///
    /// When the store has no write-ahead log, SQLite reads it without a lock; should a writer open
    /// it meanwhile, the reading starts again (with the writer's lock) if nothing was handed to
    /// `write` yet, and otherwise throws ``StoreChangedWhileRead``, never a false
    /// ``StoreError/corrupt(path:setAsidePath:cause:)``.
    /// - Returns: how many events were written.
    @discardableResult
    public func export(_ query: StoreQuery, pageSize: Int = 10_000, limit: Int? = nil,
                       into write: ([MonitorRecord]) throws -> Void) throws -> Int {
        var attempt = 0
        while true {
            attempt += 1
            var written = 0
            do {
                try exportOnce(query, pageSize: max(1, pageSize), limit: limit ?? .max) { records in
                    try write(records)
                    written += records.count
                }
                return written
            } catch let changed as StoreChangedWhileRead where written == 0 && attempt < 5 {
                _ = changed
            }
        }
    }

    /// One attempt of ``export(_:pageSize:limit:into:)``, on a connection of its own.
    private func exportOnce(_ query: StoreQuery, pageSize: Int, limit: Int, write: ([MonitorRecord]) throws -> Void) throws {
        let before = StoreFileState(path: path)
        var unlocked = !before.hasLog
        // Without a log when opened, SQLite holds no lock: a writer may change the file under it,
        // and what it then reports (damage included) says nothing about the store.
        func checked<Value>(_ body: () throws -> Value) throws -> Value {
            do {
                let value = try body()
                guard !unlocked || StoreFileState(path: path) == before else { throw StoreChangedWhileRead(path: path) }
                return value
            } catch let error as StoreError where unlocked && StoreFileState(path: path) != before {
                _ = error
                throw StoreChangedWhileRead(path: path)
            }
        }
        let reading = try checked { try EventStore(path: path, limits: .unlimited, readOnly: true) }
        defer { reading.close() }
        unlocked = unlocked || !StoreFileState(path: path).hasLog
        let snapshot = try checked { try StoreSnapshot(store: reading, query: query) }
        defer { snapshot.finish() }
        var offset = 0
        while offset < limit {
            let wanted = min(pageSize, limit - offset)
            let rows = try checked { try snapshot.page(offset: offset, limit: wanted) }
            try write(rows.map { MonitorRecord($0) })
            offset += rows.count
            if rows.count < wanted { break }
        }
    }

    /// The events matching `query`, with their status.
    public func records(_ query: StoreQuery = StoreQuery()) throws -> [MonitorRecord] {
        try store.query(query).map { MonitorRecord($0) }
    }

    /// How many events the store holds, by status.
    public func counts() -> StoreCounts { store.counts() }

    /// How many events match `query`, ignoring its limit and offset.
    public func count(matching query: StoreQuery) throws -> Int { try store.count(matching: query) }

    /// Closes the store; later calls throw ``StoreError/closed(path:)``.
    public func close() { store.close() }
}
