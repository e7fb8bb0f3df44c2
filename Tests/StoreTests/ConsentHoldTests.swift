@testable import Dispatcher
import Foundation
import Testing
import TestSupport
import Tracking

/// Events flagged `awaiting_consent` wait in the store, untouched, until released or deleted.
@Suite struct ConsentHoldTests {
    private func awaitingConsent(_ index: Int, category: String) -> EncodedEvent {
        let date = Date()
        return EncodedEvent(TrackedEvent(
            id: EventID.make(at: date), timestamp: date, category: category, name: "promo", action: "view",
            userData: ["index": .int(index)],
            flags: [EventFlag(code: "awaiting_consent", detail: "marketing"), EventFlag(code: "duplicate")]))
    }

    @Test func heldEventsAreCountedNeverClaimedNorEvicted() throws {
        let folder = try TemporaryDirectory(prefix: "StoreTests")
        defer { folder.remove() }
        let store = try EventStore(path: folder.file("store.sqlite").path, limits: StoreLimits(maxEvents: 6))
        let held = (0..<3).map { awaitingConsent($0, category: "Marketing") }
        try store.insert(held)
        try store.insert((0..<6).map { sampleEvent($0) }) // 9 > 6: three pending events are evicted
        let counts = store.counts()
        #expect(counts.held == 3 && counts.pending == 3 && counts.evicted == 3 && counts.total == 6)
        let claimed = try store.claimBatch(limit: 100, maxBytes: .max, now: Date())
        #expect(claimed.count == 3 && claimed.allSatisfy { $0.event.category == "Basket" })
        #expect(try store.claimBatch(limit: 100, maxBytes: .max, now: Date()).isEmpty)
        let rows = try store.query(StoreQuery(status: .held))
        #expect(rows.map(\.event.id) == held.map(\.id) && rows.allSatisfy { $0.status == .held })
        let bytes = held.map(\.approximateSize).reduce(0, +) + claimed.map(\.event.approximateSize).reduce(0, +)
        #expect(counts.bytes == bytes)
    }

    @Test func releaseMakesACategoryDeliverableWithoutTheHoldFlag() throws {
        let folder = try TemporaryDirectory(prefix: "StoreTests")
        defer { folder.remove() }
        let path = folder.file("store.sqlite").path
        let marketing = (0..<4).map { awaitingConsent($0, category: "Marketing") }
        let ads = (0..<2).map { awaitingConsent($0, category: "Ads") }
        do { try EventStore(path: path).insert(marketing + ads) }
        let store = try EventStore(path: path) // counters and held rows survive a reopen
        #expect(store.counts().held == 6)
        #expect(try store.releaseHeld(category: "Marketing") == 4)
        #expect(try store.releaseHeld(category: "Nothing") == 0)
        let counts = store.counts()
        #expect(counts.held == 2 && counts.pending == 4)
        let claimed = try store.claimBatch(limit: 100, maxBytes: .max, now: Date())
        #expect(claimed.map(\.event.id) == marketing.map(\.id))
        let codes = try #require(claimed.first).event.flagCodes
        #expect(codes == ["duplicate"], "\(codes)")
        let expectedBytes = claimed.map(\.event.approximateSize).reduce(0, +) + ads.map(\.approximateSize).reduce(0, +)
        #expect(counts.bytes == expectedBytes)
        try store.acknowledge(claimed.map(\.event.id))
        #expect(store.counts().total == 2 && store.counts().held == 2)
    }

    @Test func deleteRemovesOnlyThatCategorysHeldEvents() throws {
        let folder = try TemporaryDirectory(prefix: "StoreTests")
        defer { folder.remove() }
        let store = try EventStore(path: folder.file("store.sqlite").path)
        let pendingMarketing = sampleEvent(0, category: "Marketing")
        let ads = awaitingConsent(0, category: "Ads")
        try store.insert((0..<3).map { awaitingConsent($0, category: "Marketing") } + [pendingMarketing, ads])
        #expect(try store.deleteHeld(category: "Marketing") == 3)
        let counts = store.counts()
        #expect(counts.held == 1 && counts.pending == 1)
        #expect(counts.bytes == pendingMarketing.approximateSize + ads.approximateSize)
        #expect(try store.query(StoreQuery()).map(\.event.id) == [pendingMarketing.id, ads.id])
    }

    @Test func aHoldIsFoundByItsCodeOnly() {
        #expect(ConsentHold.isHeld(Array(#"[{"code":"awaiting_consent"}]"#.utf8)))
        #expect(!ConsentHold.isHeld(Array(#"[{"code":"duplicate","detail":"awaiting_consent_x"}]"#.utf8)))
        #expect(!ConsentHold.isHeld(Array("[]".utf8)))
        #expect(ConsentHold.released(Array(#"[{"code":"awaiting_consent"}]"#.utf8)) == Array("[]".utf8))
    }
}
