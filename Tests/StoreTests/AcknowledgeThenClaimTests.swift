@testable import Dispatcher
import Foundation
import Testing
import TestSupport
import Tracking

/// A delivery round's acknowledgement and next claim share one transaction; these check that
/// it does exactly what the two calls do.
@Suite struct AcknowledgeThenClaimTests {
    private static let events = (0..<25).map { index in
        EncodedEvent(TrackedEvent(category: "basket", name: "item_\(index)", action: "add", userData: ["index": .int(index)]))
    }

    private func store(_ folder: TemporaryDirectory, _ name: String, events: Int) throws -> EventStore {
        let store = try EventStore(path: folder.file(name).path)
        try store.insert(Self.events.prefix(events))
        return store
    }

    @Test func itAcknowledgesAndClaimsLikeTheTwoCalls() throws {
        let folder = try TemporaryDirectory(prefix: "StoreTests")
        defer { folder.remove() }
        let now = Date()
        let separate = try store(folder, "separate.sqlite", events: 25)
        let combined = try store(folder, "combined.sqlite", events: 25)
        let firstSeparate = try separate.claimBatch(limit: 10, maxBytes: 1 << 20, now: now)
        let firstCombined = try combined.claimBatch(limit: 10, maxBytes: 1 << 20, now: now)
        #expect(firstSeparate.map(\.event) == firstCombined.map(\.event))

        try separate.acknowledge(firstSeparate.map(\.event.id))
        let nextSeparate = try separate.claimBatch(limit: 10, maxBytes: 1 << 20, now: now)
        let nextCombined = try combined.acknowledge(firstCombined.map(\.event.id), thenClaim: 10, maxBytes: 1 << 20, now: now)

        #expect(nextCombined.map(\.event) == nextSeparate.map(\.event))
        #expect(nextCombined.count == 10)
        #expect(combined.counts() == separate.counts())
        #expect(combined.counts().inFlight == 10 && combined.counts().pending == 5)
        let delivered = StoreQuery(status: .delivered, limit: 100)
        #expect(try combined.query(delivered).map(\.event) == separate.query(delivered).map(\.event))
        #expect(try combined.query(delivered).count == 10)
        // The range a crash would release covers the new batch only, not the acknowledged one.
        let range = "\(nextCombined.first!.sequence):\(nextCombined.last!.sequence)"
        #expect(try combined.metadata(EventStoreSchema.inFlightRangeKey) == range)
        // Acknowledged rows are no longer in flight: acknowledging them again changes nothing.
        try combined.acknowledge(firstCombined.map(\.event.id))
        #expect(combined.counts() == separate.counts())
    }

    @Test func withNothingLeftToClaimItStillAcknowledges() throws {
        let folder = try TemporaryDirectory(prefix: "StoreTests")
        defer { folder.remove() }
        let store = try store(folder, "store.sqlite", events: 4)
        let batch = try store.claimBatch(limit: 10, maxBytes: 1 << 20, now: Date())
        let next = try store.acknowledge(batch.map(\.event.id), thenClaim: 10, maxBytes: 1 << 20, now: Date())
        #expect(next.isEmpty)
        #expect(store.counts().total == 0)
        #expect(try store.query(StoreQuery(status: .delivered, limit: 10)).count == 4)
    }

    @Test func aClosedStoreThrowsAndNothingIsAcknowledged() throws {
        let folder = try TemporaryDirectory(prefix: "StoreTests")
        defer { folder.remove() }
        let path = folder.file("store.sqlite").path
        let store = try store(folder, "store.sqlite", events: 6)
        let batch = try store.claimBatch(limit: 3, maxBytes: 1 << 20, now: Date())
        store.close()
        #expect(throws: (any Error).self) {
            try store.acknowledge(batch.map(\.event.id), thenClaim: 3, maxBytes: 1 << 20, now: Date())
        }
        // Reopened, the claimed rows are released, none was delivered.
        let reopened = try EventStore(path: path)
        #expect(reopened.counts().pending == 6)
        #expect(try reopened.query(StoreQuery(status: .delivered, limit: 10)).isEmpty)
    }
}
