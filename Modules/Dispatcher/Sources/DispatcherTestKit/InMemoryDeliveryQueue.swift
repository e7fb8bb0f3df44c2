import Dispatcher
import Foundation

/// A ``Dispatcher/DeliveryQueue`` in memory, for tests of delivery without a store.
///
/// It follows the store's rules: claims take due pending events oldest first within the count
/// and byte limits (always at least one), only in-flight events can be settled, and
/// acknowledged events leave. It also counts what happened, and fails on demand.
public final class InMemoryDeliveryQueue: DeliveryQueue, @unchecked Sendable {
    // Safe: every stored property below is only touched while holding `lock`.
    private let lock = NSLock()
    private var rows: [StoredEvent] = []
    private var acknowledgedIDs: [UUID] = []
    private var claimCount = 0
    private var nextSequence: Int64 = 1
    private var failure: (any Error)?

    /// Creates an empty queue.
    public init() {}

    /// Creates a queue holding `events` as pending, created at `createdAt`.
    public convenience init(events: [EncodedEvent], createdAt: Date = Date()) {
        self.init()
        add(events, createdAt: createdAt)
    }

    /// Adds events as pending.
    public func add(_ events: [EncodedEvent], createdAt: Date = Date()) {
        lock.withLock {
            for event in events {
                rows.append(StoredEvent(sequence: nextSequence, event: event, status: .pending, attempts: 0,
                                        createdAt: createdAt))
                nextSequence += 1
            }
        }
    }

    /// Every row still held (pending, in flight or rejected), in order.
    public var storedEvents: [StoredEvent] { lock.withLock { rows } }
    /// The rows with `status`.
    public func events(_ status: EventStatus) -> [StoredEvent] { lock.withLock { rows.filter { $0.status == status } } }
    /// The ids acknowledged so far, in order of acknowledgement.
    public var acknowledged: [UUID] { lock.withLock { acknowledgedIDs } }
    /// How many batches were claimed.
    public var claims: Int { lock.withLock { claimCount } }

    /// Makes every later call throw `error` (nil to heal).
    public func failNextCalls(with error: (any Error)?) { lock.withLock { failure = error } }

    /// Claims due pending events, oldest first, within `limit` and `maxBytes` (at least one).
    public func claimBatch(limit: Int, maxBytes: Int, now: Date) throws -> [StoredEvent] {
        try lock.withLock {
            if let failure { throw failure }
            var claimed: [StoredEvent] = []
            var bytes = 0
            for index in rows.indices where rows[index].status == .pending {
                if claimed.count >= limit { break }
                if let next = rows[index].nextAttemptAt, next > now { continue }
                let size = rows[index].event.approximateSize
                if !claimed.isEmpty, bytes + size > maxBytes { break }
                rows[index].status = .inFlight
                bytes += size
                claimed.append(rows[index])
            }
            if !claimed.isEmpty { claimCount += 1 }
            return claimed
        }
    }

    /// Removes acknowledged in-flight events.
    public func acknowledge(_ ids: [UUID]) throws {
        try lock.withLock {
            if let failure { throw failure }
            let set = Set(ids)
            rows.removeAll { row in
                guard set.contains(row.event.id), row.status == .inFlight else { return false }
                acknowledgedIDs.append(row.event.id)
                return true
            }
        }
    }

    /// Returns in-flight events to pending with an attempt counted.
    public func scheduleRetry(_ ids: [UUID], nextAttemptAt: Date, error: String) throws {
        try update(ids) { row in
            row.status = .pending
            row.attempts += 1
            row.nextAttemptAt = nextAttemptAt
            row.lastError = error
        }
    }

    /// Moves in-flight events to rejected with an attempt counted.
    public func reject(_ ids: [UUID], reason: String) throws {
        try update(ids) { row in
            row.status = .rejected
            row.attempts += 1
            row.lastError = reason
        }
    }

    /// Returns in-flight events to pending without counting an attempt.
    public func release(_ ids: [UUID]) throws {
        try update(ids) { row in row.status = .pending }
    }

    private func update(_ ids: [UUID], _ change: (inout StoredEvent) -> Void) throws {
        try lock.withLock {
            if let failure { throw failure }
            let set = Set(ids)
            for index in rows.indices where rows[index].status == .inFlight && set.contains(rows[index].event.id) {
                change(&rows[index])
            }
        }
    }
}
