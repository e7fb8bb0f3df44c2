@testable import Dispatcher
import Foundation
import Testing
import TestSupport
import Tracking

@Suite struct EventStoreTests {
    @Test func lifecycleInsertClaimRetryRejectAcknowledge() throws {
        let folder = try TemporaryDirectory(prefix: "StoreTests")
        defer { folder.remove() }
        let store = try EventStore(path: folder.file("store.sqlite").path)
        let events = (0..<5).map { sampleEvent($0) }
        let outcome = try store.insert(events)
        #expect(outcome.inserted == 5)
        #expect(store.counts().pending == 5)

        let now = Date()
        let batch = try store.claimBatch(limit: 3, maxBytes: .max, now: now)
        #expect(batch.map(\.event) == Array(events.prefix(3)))
        #expect(batch.allSatisfy { $0.status == .inFlight })
        #expect(store.counts().inFlight == 3 && store.counts().pending == 2)

        // In flight rows are not claimed twice.
        let second = try store.claimBatch(limit: 10, maxBytes: .max, now: now)
        #expect(second.map(\.event.id) == events.suffix(2).map(\.id))

        try store.scheduleRetry([events[0].id], nextAttemptAt: now.addingTimeInterval(60), error: "HTTP 503")
        try store.reject([events[1].id], reason: "HTTP 400")
        try store.acknowledge([events[2].id, events[3].id])
        try store.release([events[4].id])

        let counts = store.counts()
        #expect(counts.pending == 2 && counts.inFlight == 0 && counts.rejected == 1 && counts.total == 3)

        let everything = try store.query(StoreQuery())
        let all = everything.filter { $0.status != .delivered }
        #expect(all.map(\.event.id) == [events[0].id, events[1].id, events[4].id])
        // The delivered history follows the stored events.
        #expect(everything.suffix(2).map(\.event.id) == [events[2].id, events[3].id])
        #expect(try store.query(StoreQuery(status: .delivered)).map(\.event.id) == [events[2].id, events[3].id])
        let retried = try #require(all.first)
        #expect(retried.attempts == 1 && retried.lastError == "HTTP 503" && retried.status == .pending)
        #expect(abs((retried.nextAttemptAt?.timeIntervalSince(now) ?? 0) - 60) < 0.01)
        #expect(all[1].status == .rejected && all[1].attempts == 1 && all[1].lastError == "HTTP 400")
        #expect(all[2].attempts == 0)

        // The retried event is not due yet; the released one is.
        let due = try store.claimBatch(limit: 10, maxBytes: .max, now: now)
        #expect(due.map(\.event.id) == [events[4].id])
        let later = try store.claimBatch(limit: 10, maxBytes: .max, now: now.addingTimeInterval(61))
        #expect(later.map(\.event.id) == [events[0].id])
        #expect(try store.deleteRejected() == 1)
        #expect(store.counts().rejected == 0)
    }

    @Test func rowLeavesOnlyOnAcknowledge() throws {
        let folder = try TemporaryDirectory(prefix: "StoreTests")
        defer { folder.remove() }
        let store = try EventStore(path: folder.file("store.sqlite").path)
        let event = sampleEvent()
        try store.insert([event])
        for _ in 0..<3 {
            _ = try store.claimBatch(limit: 1, maxBytes: .max, now: Date())
            try store.scheduleRetry([event.id], nextAttemptAt: Date(timeIntervalSince1970: 0), error: "timeout")
        }
        _ = try store.claimBatch(limit: 1, maxBytes: .max, now: Date())
        try store.release([event.id])
        #expect(try store.query(StoreQuery()).map(\.attempts) == [3])
        _ = try store.claimBatch(limit: 1, maxBytes: .max, now: Date())
        #expect(store.counts().total == 1)
        try store.acknowledge([event.id])
        #expect(store.counts().total == 0 && store.counts().bytes == 0)
        #expect(try store.query(StoreQuery()).map(\.status) == [.delivered])
        #expect(try store.query(StoreQuery(status: .pending)).isEmpty)
    }

    @Test func claimPagesByLimitBytesAndAge() throws {
        let folder = try TemporaryDirectory(prefix: "StoreTests")
        defer { folder.remove() }
        let store = try EventStore(path: folder.file("store.sqlite").path)
        let base = Date()
        let events = (0..<20).map { sampleEvent($0, at: base.addingTimeInterval(Double($0) / 1000)) }
        try store.insert(events)
        let size = events[0].approximateSize
        let byBytes = try store.claimBatch(limit: 10, maxBytes: size * 3 + size / 2, now: base)
        #expect(byBytes.map(\.event.id) == events[0..<3].map(\.id))
        let atLeastOne = try store.claimBatch(limit: 10, maxBytes: 1, now: base)
        #expect(atLeastOne.map(\.event.id) == [events[3].id])
        let byLimit = try store.claimBatch(limit: 5, maxBytes: .max, now: base)
        #expect(byLimit.map(\.event.id) == events[4..<9].map(\.id))
        let sequences = byLimit.map(\.sequence)
        #expect(sequences == sequences.sorted())
        #expect(try store.claimBatch(limit: 0, maxBytes: .max, now: base).isEmpty)
    }

    @Test func claimSeeksByRowidWithoutSorting() throws {
        let folder = try TemporaryDirectory(prefix: "StoreTests")
        defer { folder.remove() }
        let path = folder.file("store.sqlite").path
        let store = try EventStore(path: path)
        store.close()
        let database = try SQLiteDatabase(path: path)
        let plan = try database.prepare("EXPLAIN QUERY PLAN " + EventStoreSchema.claim)
        var details: [String] = []
        while try plan.step() { details.append(plan.string(3) ?? "") }
        #expect(details.contains { $0.contains("INTEGER PRIMARY KEY (rowid>?)") }, "\(details)")
        #expect(!details.contains { $0.contains("TEMP B-TREE") }, "\(details)")
    }

    @Test func evictsOldestPendingByCountAndCountsIt() throws {
        let folder = try TemporaryDirectory(prefix: "StoreTests")
        defer { folder.remove() }
        let path = folder.file("store.sqlite").path
        let store = try EventStore(path: path, limits: StoreLimits(maxEvents: 5))
        let events = (0..<8).map { sampleEvent($0) }
        try store.insert(Array(events[0..<2]))
        _ = try store.claimBatch(limit: 1, maxBytes: .max, now: Date()) // events[0] in flight: never evicted
        let outcome = try store.insert(Array(events[2...]))
        #expect(outcome.inserted == 6)
        #expect(outcome.evicted == events[1..<4].map(\.id))
        #expect(store.counts().total == 5 && store.counts().evicted == 3 && store.counts().inFlight == 1)
        let held = try store.query(StoreQuery()).map(\.event.id)
        #expect(held == [events[0].id] + events[4...].map(\.id))
        store.close()
        let reopened = try EventStore(path: path, limits: StoreLimits(maxEvents: 5))
        #expect(reopened.counts().evicted == 3)
    }

    @Test func evictsByBytes() throws {
        let folder = try TemporaryDirectory(prefix: "StoreTests")
        defer { folder.remove() }
        let events = (0..<10).map { sampleEvent($0) }
        let size = events[0].approximateSize
        let store = try EventStore(path: folder.file("store.sqlite").path, limits: StoreLimits(maxBytes: size * 4 + 1))
        let outcome = try store.insert(events)
        #expect(outcome.evicted.count == 6)
        #expect(store.counts().pending == 4 && store.counts().bytes <= size * 4 + 1 && store.counts().evicted == 6)
        #expect(try store.query(StoreQuery()).map(\.event.id) == events.suffix(4).map(\.id))
    }

    @Test func duplicatesAreIgnoredAndReported() throws {
        let folder = try TemporaryDirectory(prefix: "StoreTests")
        defer { folder.remove() }
        let store = try EventStore(path: folder.file("store.sqlite").path)
        let events = (0..<3).map { sampleEvent($0) }
        try store.insert(events)
        let again = try store.insert([events[1], sampleEvent(9), events[2]])
        #expect(again.inserted == 1)
        #expect(again.duplicates == [events[1].id, events[2].id])
        #expect(store.counts().pending == 4)
    }

    @Test func releaseAllInFlightAndReopenRecovers() throws {
        let folder = try TemporaryDirectory(prefix: "StoreTests")
        defer { folder.remove() }
        let path = folder.file("store.sqlite").path
        var store: EventStore? = try EventStore(path: path)
        try store?.insert((0..<4).map { sampleEvent($0) })
        _ = try store?.claimBatch(limit: 3, maxBytes: .max, now: Date())
        #expect(store?.counts().inFlight == 3)
        #expect(try store?.releaseAllInFlight() == 3)
        _ = try store?.claimBatch(limit: 2, maxBytes: .max, now: Date())
        try store?.setMetadata("installation_id", "abc")
        store = nil // dropped mid-delivery, as after a crash
        let reopened = try EventStore(path: path)
        #expect(reopened.counts() == StoreCounts(pending: 4, inFlight: 0, rejected: 0, bytes: reopened.counts().bytes, evicted: 0))
        #expect(reopened.counts().bytes == (0..<4).map { sampleEvent($0).approximateSize }.reduce(0, +))
        #expect(try reopened.query(StoreQuery(status: .inFlight)).isEmpty)
        #expect(try reopened.metadata("installation_id") == "abc")
        #expect(reopened.recoveredFrom == nil)
    }

    @Test func idsNotInFlightAreSettledByOneScan() throws {
        let folder = try TemporaryDirectory(prefix: "StoreTests")
        defer { folder.remove() }
        let path = folder.file("store.sqlite").path
        let events = (0..<6).map { sampleEvent($0) }
        do {
            let store = try EventStore(path: path)
            try store.insert(events)
        }
        let store = try EventStore(path: path) // nothing claimed through this instance
        try store.reject([events[1].id, events[2].id], reason: "expired")
        try store.acknowledge([events[3].id, UUID()])
        try store.scheduleRetry([events[4].id], nextAttemptAt: Date(), error: "ignored: not in flight")
        let counts = store.counts()
        #expect(counts.pending == 3 && counts.rejected == 2 && counts.inFlight == 0)
        #expect(counts.bytes == [0, 1, 2, 4, 5].map { events[$0].approximateSize }.reduce(0, +))
        let rows = try store.query(StoreQuery()).filter { $0.status != .delivered }
        #expect(rows.map(\.event.id) == [0, 1, 2, 4, 5].map { events[$0].id })
        #expect(try store.query(StoreQuery(status: .delivered)).map(\.event.id) == [events[3].id])
        #expect(rows[1].status == .rejected && rows[1].lastError == "expired" && rows[1].attempts == 1)
        #expect(rows[3].attempts == 0)
        try store.acknowledge([events[1].id]) // a rejected row can still be removed on purpose
        #expect(store.counts().rejected == 1)
    }

    @Test func crashMidDeliveryReleasesTheClaimedRangeOnOpen() throws {
        let folder = try TemporaryDirectory(prefix: "StoreTests")
        defer { folder.remove() }
        let path = folder.file("store.sqlite").path
        let events = (0..<3_000).map { sampleEvent($0) }
        do {
            let store = try EventStore(path: path)
            try store.insert(events)
            _ = try store.claimBatch(limit: 100, maxBytes: .max, now: Date())
            try store.reject([events[100].id], reason: "bad") // a hole before the next claim
            _ = try store.claimBatch(limit: 100, maxBytes: .max, now: Date())
            #expect(store.counts().inFlight == 200)
        } // dropped without settling: a crash mid-delivery
        let store = try EventStore(path: path)
        #expect(store.counts().inFlight == 0 && store.counts().pending == 2_999 && store.counts().rejected == 1)
        #expect(try store.query(StoreQuery(status: .inFlight)).isEmpty)
        let again = try store.claimBatch(limit: 150, maxBytes: .max, now: Date())
        #expect(again.map(\.event.id) == Array(events[0..<100].map(\.id) + events[101..<151].map(\.id)))
        #expect(again.allSatisfy { $0.attempts == 0 })
    }
}
