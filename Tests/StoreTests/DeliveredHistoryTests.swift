@testable import Dispatcher
import Foundation
import Testing
import TestSupport
import Tracking

/// Acknowledged events are kept, bounded, for the monitor.
@Suite struct DeliveredHistoryTests {
    /// Claims everything pending in batches and acknowledges it.
    private func deliverAll(_ store: EventStore, batch: Int = 100, at date: Date = Date()) throws -> [UUID] {
        var delivered: [UUID] = []
        while true {
            let rows = try store.claimBatch(limit: batch, maxBytes: .max, now: Date())
            guard !rows.isEmpty else { return delivered }
            try store.acknowledge(rows.map(\.event.id), deliveredAt: date)
            delivered += rows.map(\.event.id)
        }
    }

    @Test func acknowledgedEventsKeepTheirFieldsInTheHistory() throws {
        let folder = try TemporaryDirectory(prefix: "StoreTests")
        defer { folder.remove() }
        let store = try EventStore(path: folder.file("store.sqlite").path)
        let date = Date(timeIntervalSince1970: 1_700_000_000)
        let tracked = TrackedEvent(
            id: EventID.make(at: date), timestamp: date, category: "Basket", name: "checkout", action: "pay",
            userData: ["item": "sku-1", "price": 12.5], context: ["app": "demo"],
            flags: [EventFlag(code: "duplicate", detail: "earlier")])
        let event = EncodedEvent(tracked)
        try store.insert([event, sampleEvent(1)])
        let claimed = try store.claimBatch(limit: 1, maxBytes: .max, now: Date())
        try store.scheduleRetry(claimed.map(\.event.id), nextAttemptAt: Date(timeIntervalSince1970: 0), error: "HTTP 503")
        #expect(try deliverAll(store, batch: 1).count == 2)
        let history = try store.query(StoreQuery(status: .delivered))
        #expect(history.count == 2)
        let first = try #require(history.first)
        #expect(first.status == .delivered)
        #expect(first.event == event) // fields, userData, context and flags byte for byte
        #expect(first.attempts == 2) // one failed attempt, then the delivery
        #expect(try first.event.decoded() == tracked)
        #expect(store.counts().total == 0 && store.counts().bytes == 0)
    }

    @Test func historyKeepsOnlyTheMostRecent() throws {
        let folder = try TemporaryDirectory(prefix: "StoreTests")
        defer { folder.remove() }
        let store = try EventStore(path: folder.file("store.sqlite").path, limits: StoreLimits(deliveredHistory: 25))
        let events = (0..<100).map { sampleEvent($0) }
        try store.insert(events)
        #expect(try deliverAll(store, batch: 7) == events.map(\.id))
        let history = try store.query(StoreQuery(status: .delivered, limit: 1_000))
        #expect(history.map(\.event.id) == events.suffix(25).map(\.id))
        let newestFirst = try store.query(StoreQuery(status: .delivered, ascending: false, limit: 3))
        #expect(newestFirst.map(\.event.id) == events.suffix(3).reversed().map(\.id))
    }

    @Test func acknowledgingPartOfABatchLeavesTheRestInFlight() throws {
        let folder = try TemporaryDirectory(prefix: "StoreTests")
        defer { folder.remove() }
        let store = try EventStore(path: folder.file("store.sqlite").path)
        let events = (0..<5).map { sampleEvent($0) }
        try store.insert(events)
        let batch = try store.claimBatch(limit: 5, maxBytes: .max, now: Date())
        try store.acknowledge([0, 1, 3, 4].map { batch[$0].event.id })
        #expect(store.counts().inFlight == 1 && store.counts().bytes == events[2].approximateSize)
        #expect(try store.query(StoreQuery(status: .inFlight)).map(\.event.id) == [events[2].id])
        try store.acknowledge([events[2].id])
        #expect(store.counts() == StoreCounts())
        #expect(try store.query(StoreQuery(status: .delivered)).map(\.event.id) == events.map(\.id)) // in creation order
    }

    @Test func zeroDisablesTheHistory() throws {
        let folder = try TemporaryDirectory(prefix: "StoreTests")
        defer { folder.remove() }
        let store = try EventStore(path: folder.file("store.sqlite").path, limits: StoreLimits(deliveredHistory: 0))
        try store.insert((0..<10).map { sampleEvent($0) })
        #expect(try deliverAll(store).count == 10)
        #expect(try store.query(StoreQuery(status: .delivered)).isEmpty)
        #expect(try store.query(StoreQuery()).isEmpty)
    }

    @Test func allStatusesPageOverStoredEventsThenTheHistory() throws {
        let folder = try TemporaryDirectory(prefix: "StoreTests")
        defer { folder.remove() }
        let store = try EventStore(path: folder.file("store.sqlite").path)
        let events = (0..<10).map { sampleEvent($0) }
        try store.insert(Array(events.prefix(4)))
        _ = try deliverAll(store) // events 0–3 delivered
        try store.insert(Array(events.suffix(6))) // events 4–9 pending
        let all = try store.query(StoreQuery(limit: 100))
        #expect(all.map(\.event.id) == Array(events[4...]).map(\.id) + Array(events[..<4]).map(\.id))
        #expect(all.map(\.status) == Array(repeating: .pending, count: 6) + Array(repeating: .delivered, count: 4))
        var paged: [UUID] = []
        for offset in stride(from: 0, to: 12, by: 4) {
            paged += try store.query(StoreQuery(limit: 4, offset: offset)).map(\.event.id)
        }
        #expect(paged == all.map(\.event.id))
    }

    @Test func historySurvivesReopenAndPurgeEmptiesIt() throws {
        let folder = try TemporaryDirectory(prefix: "StoreTests")
        defer { folder.remove() }
        let path = folder.file("store.sqlite").path
        do {
            let store = try EventStore(path: path)
            try store.insert((0..<5).map { sampleEvent($0) })
            _ = try deliverAll(store)
            store.close()
        }
        let store = try EventStore(path: path)
        #expect(try store.query(StoreQuery(status: .delivered)).count == 5)
        try store.purge()
        #expect(try store.query(StoreQuery(status: .delivered)).isEmpty)
        #expect(try store.query(StoreQuery()).isEmpty)
    }

    @Test func acknowledgingIdsNotInFlightRecordsThemToo() throws {
        let folder = try TemporaryDirectory(prefix: "StoreTests")
        defer { folder.remove() }
        let path = folder.file("store.sqlite").path
        let events = (0..<3).map { sampleEvent($0) }
        do { try EventStore(path: path).insert(events) }
        let store = try EventStore(path: path) // nothing claimed through this instance
        try store.acknowledge([events[1].id, UUID()])
        #expect(try store.query(StoreQuery(status: .delivered)).map(\.event.id) == [events[1].id])
        #expect(store.counts().pending == 2)
    }
}
