@testable import Dispatcher
import Foundation
import Testing
import TestSupport
import Tracking

/// The counters stay exact through ingest, a restart with journal replay, and a full delivery.
@Suite struct CounterSanityTests {
    @Test func countsAreExactThroughReplayAndDeliveryAndNoIdIsClaimedTwice() throws {
        let folder = try TemporaryDirectory(prefix: "StoreTests")
        defer { folder.remove() }
        let path = folder.file("store.sqlite").path
        let count = 20_000
        let events = (0..<count).map { sampleEvent($0) }
        do {
            let store = try EventStore(path: path)
            let writer = try IngestWriter(store: store, configuration: IngestConfiguration(batchSize: 1_000))
            #expect(writer.write(contentsOf: Array(events.prefix(count / 2))).written == count / 2)
            for event in events.suffix(count / 2) { #expect(throws: Never.self) { try writer.write(event) } }
            #expect(writer.close(timeout: 15))
            #expect(store.counts() == StoreCounts(pending: count, bytes: events.map(\.approximateSize).reduce(0, +)))
            store.close()
        }
        // Reopen with a new writer: the journal was drained, nothing is replayed twice.
        let store = try EventStore(path: path)
        let writer = try IngestWriter(store: store)
        #expect(writer.waitUntilPersisted(timeout: 10))
        var expected = StoreCounts(pending: count, bytes: events.map(\.approximateSize).reduce(0, +))
        #expect(store.counts() == expected)
        var claimed = Set<UUID>()
        var rounds = 0
        while rounds < count / 500 + 5 {
            rounds += 1
            let batch = try store.claimBatch(limit: 500, maxBytes: .max, now: Date())
            if batch.isEmpty { break }
            for row in batch { #expect(claimed.insert(row.event.id).inserted, "\(row.event.id) claimed twice") }
            expected.pending -= batch.count
            expected.inFlight += batch.count
            #expect(store.counts() == expected)
            try store.acknowledge(batch.map(\.event.id))
            expected.inFlight -= batch.count
            expected.bytes -= batch.map(\.event.approximateSize).reduce(0, +)
            #expect(store.counts() == expected)
        }
        #expect(claimed == Set(events.map(\.id)))
        #expect(store.counts() == StoreCounts())
        #expect(try store.query(StoreQuery(status: .pending)).isEmpty)
        #expect(writer.close())
        store.close()
        let reopened = try EventStore(path: path)
        #expect(reopened.counts() == StoreCounts())
    }

    @Test func countsAreExactWhenACrashLeavesTheJournalToReplay() throws {
        let folder = try TemporaryDirectory(prefix: "StoreTests")
        defer { folder.remove() }
        let path = folder.file("store.sqlite").path
        let count = 20_000
        let events = (0..<count).map { sampleEvent($0) }
        do {
            let store = try EventStore(path: path)
            let writer = try IngestWriter(store: store, configuration: IngestConfiguration(batchSize: 500))
            for event in events { #expect(throws: Never.self) { try writer.write(event) } }
            writer.simulateCrash() // some groups in SQLite, every event in the journal
            store.close()
        }
        let store = try EventStore(path: path)
        let writer = try IngestWriter(store: store)
        #expect(writer.waitUntilPersisted(timeout: 15))
        #expect(store.counts().pending == count && store.counts().total == count)
        var claimed = Set<UUID>()
        for _ in 0..<(count / 500 + 5) {
            let batch = try store.claimBatch(limit: 500, maxBytes: .max, now: Date())
            if batch.isEmpty { break }
            for row in batch { #expect(claimed.insert(row.event.id).inserted) }
            try store.acknowledge(batch.map(\.event.id))
            #expect(store.counts().pending == count - claimed.count && store.counts().inFlight == 0)
        }
        #expect(claimed.count == count)
        #expect(store.counts() == StoreCounts())
        #expect(writer.close())
    }
}
