@testable import Dispatcher
import Foundation
import Testing
import TestSupport
import Tracking

@Suite struct EventStoreQueryTests {
    @Test func querySortsFiltersAndPages() throws {
        let folder = try TemporaryDirectory(prefix: "StoreTests")
        defer { folder.remove() }
        let store = try EventStore(path: folder.file("store.sqlite").path)
        let events = [
            sampleEvent(0, category: "Wishlist", name: "add"),
            sampleEvent(1, category: "Basket", name: "remove"),
            sampleEvent(2, category: "Onboarding", name: "start"),
            sampleEvent(3, category: "Basket", name: "add"),
        ]
        try store.insert(events)
        _ = try store.claimBatch(limit: 1, maxBytes: .max, now: Date())
        try store.reject([events[0].id], reason: "bad")
        try store.reject([events[2].id], reason: "bad")

        let byCategory = try store.query(StoreQuery(sort: .category))
        #expect(byCategory.map(\.event.category) == ["Basket", "Basket", "Onboarding", "Wishlist"])
        let byNameDescending = try store.query(StoreQuery(sort: .name, ascending: false))
        #expect(byNameDescending.map(\.event.name) == ["start", "remove", "add", "add"])
        let rejected = try store.query(StoreQuery(status: .rejected))
        #expect(rejected.map(\.event.id) == [events[0].id, events[2].id])
        let pending = try store.query(StoreQuery(status: .pending, sort: .createdAt, ascending: false))
        #expect(pending.map(\.event.id) == [events[3].id, events[1].id])
        #expect(try store.query(StoreQuery(status: .delivered)).isEmpty)
        let byAttempts = try store.query(StoreQuery(sort: .attempts, ascending: false, limit: 2))
        #expect(byAttempts.allSatisfy { $0.attempts == 1 })
        let page = try store.query(StoreQuery(limit: 2, offset: 1))
        #expect(page.map(\.event.id) == [events[1].id, events[2].id])
        let byStatus = try store.query(StoreQuery(sort: .status))
        #expect(byStatus.map(\.status) == [.pending, .pending, .rejected, .rejected])
        #expect(try store.query(StoreQuery()).first?.event.decoded().userData["item"] == "sku-0")
    }

    @Test func purgeDeletesEventsAndMetadata() throws {
        let folder = try TemporaryDirectory(prefix: "StoreTests")
        defer { folder.remove() }
        let path = folder.file("store.sqlite").path
        let store = try EventStore(path: path, limits: StoreLimits(maxEvents: 2))
        try store.insert((0..<3).map { sampleEvent($0) })
        try store.setMetadata("installation_id", "abc")
        try store.setMetadata("user_id", "u-1")
        try store.purge()
        #expect(store.counts() == StoreCounts())
        #expect(try store.metadata("installation_id") == nil)
        #expect(try store.metadata("user_id") == nil)
        #expect(try store.query(StoreQuery()).isEmpty)
        try store.insert([sampleEvent(5)])
        #expect(store.counts().pending == 1)
        store.close()
        #expect(throws: StoreError.self) { try store.insert([sampleEvent(6)]) }
    }

    @Test func metadataRoundTrips() throws {
        let folder = try TemporaryDirectory(prefix: "StoreTests")
        defer { folder.remove() }
        let store = try EventStore(path: folder.file("store.sqlite").path)
        #expect(try store.metadata("k") == nil)
        try store.setMetadata("k", "v1")
        try store.setMetadata("k", "v2")
        #expect(try store.metadata("k") == "v2")
        try store.setMetadata("k", nil)
        #expect(try store.metadata("k") == nil)
    }
}
