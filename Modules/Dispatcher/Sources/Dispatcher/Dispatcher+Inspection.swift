import Foundation
import Tracking

extension Dispatcher {
    /// Counters since start, with the store's current counts.
    public var counters: DispatcherCounters {
        var counters = state.withLock { state in state.counters }
        counters.flagged = tally.flagged
        counters.buffered = overflow.count
        counters.sent = counters.buffered + counters.refused
        guard let backend else { return counters }
        let statistics = backend.ingest.statistics
        counters.sent += statistics.journalled
        counters.persisted = statistics.persisted
        counters.duplicates = statistics.duplicates
        counters.journalLosses = backend.ingest.journal.damage.byCause.merging(backend.ingest.journal.lossesSinceOpen) { $0 + $1 }
        counters.lostWithStore = statistics.lostWithStore
        counters.store = backend.store.counts()
        counters.evicted = counters.store.evicted
        return counters
    }

    /// Events in the store with their status and this session's timeline, for the monitor.
    ///
    /// Events made durable in the journal but not yet written to the store are included, as
    /// pending, with ``MonitorRecord/inJournal`` set.
    public func records(_ query: StoreQuery = StoreQuery()) throws -> [MonitorRecord] {
        guard let store else { return [] }
        let events = try store.query(query, includingJournal: true)
        let timelines = timeline.steps(of: Set(events.map(\.event.id)))
        return events.map { MonitorRecord($0, timeline: timelines[$0.event.id] ?? []) }
    }

    /// The delivery timeline of one event of this session, oldest step first: persisted, each
    /// attempt with its outcome, delivered or rejected, evicted. Empty when the event is unknown
    /// or was forgotten (the Dispatcher keeps ``DispatcherConfiguration/timelineCapacity`` events).
    public func timeline(of id: UUID) -> [TimelineStep] { timeline.steps(of: id) }

    /// The value stored under `key` in the store's metadata: the identity record's fields and
    /// the Dispatcher's own state (keys starting with `_`, which ``purge(isolation:)`` keeps).
    /// - Throws: ``StoreError/closed(path:)`` while the store is not open.
    func metadata(_ key: String) throws -> String? {
        guard let store else { throw StoreError.closed(path: configuration.storePath) }
        return try store.metadata(key)
    }

    /// Stores `value` under `key` in the store's metadata; `nil` removes the key.
    /// - Throws: ``StoreError/closed(path:)`` while the store is not open.
    func setMetadata(_ key: String, _ value: String?) throws {
        guard let store else { throw StoreError.closed(path: configuration.storePath) }
        try store.setMetadata(key, value)
    }

    /// Deletes the rejected events (they are otherwise kept); returns how many.
    @discardableResult
    public func deleteRejected() throws -> Int { try store?.deleteRejected() ?? 0 }

    /// Returns the rejected events to pending with their attempts reset (once what made the
    /// collector refuse them is fixed) and asks for a delivery; returns how many.
    @discardableResult
    public func requeueRejected() throws -> Int {
        let requeued = try store?.requeueRejected() ?? 0
        backend?.scheduler?.request(.caller(events: requeued))
        return requeued
    }

    /// Persists what is pending, stops delivery and the writer, and closes the store, waiting
    /// at most about `timeout` seconds for each.
    public func close(timeout: TimeInterval = 10, isolation: isolated (any Actor)? = #isolation) async {
        await LibraryTask.run {
            // What waits in memory for the store being opened is persisted like the rest.
            if isOpening { await storageReady() }
            let (first, backend, timer) = state.withLock { state in
                defer { state.closed = true }
                return (!state.closed, state.backend, state.reopenTimer)
            }
            guard first else { return }
            timer?.cancel()
            guard let backend else { return }
            // A request in flight may take long: wait for it at most `timeout` (its events stay in
            // flight in the store and are released to pending on the next open).
            if let scheduler = backend.scheduler { _ = await withTimeout(timeout) { await scheduler.close() } }
            _ = await Self.offload { [self] in
                // What waits in memory is lost with the process: give the journal a last chance.
                moveFromMemory(to: backend)
                let closed = backend.ingest.close(timeout: timeout)
                backend.store.close()
                return closed
            }
        }
    }
}
