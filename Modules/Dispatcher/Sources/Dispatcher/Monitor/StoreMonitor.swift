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

    /// Opens the store at `storePath` for reading only.
    /// - Throws: ``StoreError/cannotOpen(path:reason:errno:)`` for a missing or empty file,
    ///   ``StoreError/notAStore(path:reason:)`` for a file that is not an event store, and
    ///   ``StoreError/corrupt(path:setAsidePath:cause:)`` for a damaged store.
    public init(storePath: String) throws {
        store = try EventStore(path: storePath, limits: .unlimited, readOnly: true)
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
