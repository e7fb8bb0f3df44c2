import Dispatcher
import Foundation
import Tracking

/// A ``Dispatcher/DeliveryQueue`` in memory, for this repository's tests of the delivery worker
/// without a store. Not public: the queue protocol and the worker are the Dispatcher's own; an
/// app's tests use ``RecordingDestination`` with a real ``Dispatcher/Dispatcher`` instead.
///
/// It follows the store's rules: claims take due pending events oldest first within the count
/// and byte limits (always at least one), only in-flight events can be settled, and
/// acknowledged events leave. It also counts what happened, and fails on demand. Every
/// operation costs time in proportion to the events it touches, so it can hold a large backlog
/// for throughput tests.
package final class InMemoryDeliveryQueue: DeliveryQueue {
    private let rows = LockedValue(Rows())

    /// Creates an empty queue.
    package init() {}

    /// Creates a queue holding `events` as pending, created at `createdAt`.
    package convenience init(events: [EncodedEvent], createdAt: Date = Date()) {
        self.init()
        add(events, createdAt: createdAt)
    }

    /// Adds events as pending.
    package func add(_ events: [EncodedEvent], createdAt: Date = Date()) {
        rows.withLock { $0.add(events, createdAt: createdAt) }
    }

    /// Every row still held (pending, in flight or rejected), in order.
    package var storedEvents: [StoredEvent] { rows.withLock { $0.slots.compactMap { $0 } } }
    /// The rows with `status`.
    package func events(_ status: EventStatus) -> [StoredEvent] {
        rows.withLock { $0.slots.compactMap { $0?.status == status ? $0 : nil } }
    }
    /// The ids acknowledged so far, in order of acknowledgement.
    package var acknowledged: [UUID] { rows.withLock { $0.acknowledgedIDs } }
    /// How many batches were claimed.
    package var claims: Int { rows.withLock { $0.claimCount } }

    /// Makes every later call throw `error` (nil to heal).
    package func failNextCalls(with error: (any Error & Sendable)?) { rows.withLock { $0.failure = error } }

    /// Claims due pending events, oldest first, within `limit` and `maxBytes` (at least one).
    package func claimBatch(limit: Int, maxBytes: Int, now: Date) throws -> [StoredEvent] {
        try rows.withLock {
            try $0.checkFailure()
            return $0.claim(limit: limit, maxBytes: maxBytes, now: now)
        }
    }

    /// Acknowledges `ids`, then claims the next batch, under one lock: when it throws (an
    /// injected failure), neither happened.
    package func acknowledge(_ ids: [UUID], thenClaim limit: Int, maxBytes: Int, now: Date) throws -> [StoredEvent] {
        try rows.withLock {
            try $0.checkFailure()
            $0.acknowledge(ids)
            return $0.claim(limit: limit, maxBytes: maxBytes, now: now)
        }
    }

    /// Removes acknowledged in-flight events.
    package func acknowledge(_ ids: [UUID]) throws {
        try rows.withLock {
            try $0.checkFailure()
            $0.acknowledge(ids)
        }
    }

    /// Returns in-flight events to pending with an attempt counted.
    package func scheduleRetry(_ ids: [UUID], nextAttemptAt: Date, error: String) throws {
        try update(ids) { row in
            row.status = .pending
            row.attempts += 1
            row.nextAttemptAt = nextAttemptAt
            row.lastError = error
        }
    }

    /// Moves in-flight events to rejected with an attempt counted.
    package func reject(_ ids: [UUID], reason: String) throws {
        try update(ids) { row in
            row.status = .rejected
            row.attempts += 1
            row.lastError = reason
        }
    }

    /// Returns in-flight events to pending without counting an attempt.
    package func release(_ ids: [UUID]) throws {
        try update(ids) { row in row.status = .pending }
    }

    private func update(_ ids: [UUID], _ change: (inout StoredEvent) -> Void) throws {
        try rows.withLock {
            try $0.checkFailure()
            $0.updateInFlight(ids, change)
        }
    }
}

/// The rows and counters of an ``InMemoryDeliveryQueue``, changed only under its lock.
private struct Rows {
    /// Rows in order; nil once acknowledged. `slots[i]` has absolute position `base + i`.
    var slots: [StoredEvent?] = []
    var base = 0
    /// The absolute position of every row still held.
    var positions: [UUID: Int] = [:]
    /// The first absolute position that may hold a row.
    var head = 0
    var acknowledgedIDs: [UUID] = []
    var claimCount = 0
    var nextSequence: Int64 = 1
    var failure: (any Error & Sendable)?

    /// Throws the injected failure, if any.
    func checkFailure() throws {
        if let failure { throw failure }
    }

    mutating func add(_ events: [EncodedEvent], createdAt: Date) {
        slots.reserveCapacity(slots.count + events.count)
        for event in events {
            positions[event.id] = base + slots.count
            slots.append(StoredEvent(sequence: nextSequence, event: event, status: .pending, attempts: 0,
                                     createdAt: createdAt))
            nextSequence += 1
        }
    }

    /// Marks due pending rows in flight, oldest first, within `limit` and `maxBytes` (at least one).
    mutating func claim(limit: Int, maxBytes: Int, now: Date) -> [StoredEvent] {
        var claimed: [StoredEvent] = []
        var bytes = 0
        var index = head - base
        while index < slots.count, claimed.count < limit {
            defer { index += 1 }
            guard let row = slots[index], row.status == .pending else { continue }
            if let next = row.nextAttemptAt, next > now { continue }
            let size = row.event.approximateSize
            if !claimed.isEmpty, bytes + size > maxBytes { break }
            slots[index]?.status = .inFlight
            bytes += size
            claimed.append(StoredEvent(sequence: row.sequence, event: row.event, status: .inFlight,
                                       attempts: row.attempts, createdAt: row.createdAt,
                                       nextAttemptAt: row.nextAttemptAt, lastError: row.lastError))
        }
        if !claimed.isEmpty { claimCount += 1 }
        return claimed
    }

    /// Removes the in-flight rows among `ids`, and drops the acknowledged prefix once it is large.
    mutating func acknowledge(_ ids: [UUID]) {
        for id in ids {
            guard let position = positions[id], slots[position - base]?.status == .inFlight else { continue }
            slots[position - base] = nil
            positions[id] = nil
            acknowledgedIDs.append(id)
        }
        while head - base < slots.count, slots[head - base] == nil { head += 1 }
        if head - base > 4096, head - base > slots.count / 2 {
            slots.removeFirst(head - base)
            base = head
        }
    }

    /// Applies `change` to the in-flight rows among `ids`.
    mutating func updateInFlight(_ ids: [UUID], _ change: (inout StoredEvent) -> Void) {
        for id in ids {
            guard let position = positions[id], var row = slots[position - base], row.status == .inFlight else { continue }
            change(&row)
            slots[position - base] = row
        }
    }
}
