@testable import Dispatcher
import Foundation
import Testing
import TestSupport
import Tracking

/// Collects what an ingest writer reports, thread-safely.
final class IngestProbe: IngestSink {
    private let persistedIDs = LockedValue([UUID]())
    private let errorTexts = LockedValue([String]())

    var persisted: [UUID] { persistedIDs.withLock { $0 } }
    var errors: [String] { errorTexts.withLock { $0 } }

    func didPersist(_ group: PersistedGroup, _ outcome: InsertOutcome, at date: Date) {
        persistedIDs.withLock { $0.append(contentsOf: group.ids) }
    }

    func failed(_ error: any Error) { errorTexts.withLock { $0.append("\(error)") } }

    func writer(store: EventStore, configuration: IngestConfiguration = IngestConfiguration()) throws -> IngestWriter {
        try IngestWriter(store: store, configuration: configuration, sink: self, onError: { [self] in failed($0) })
    }
}

@Suite(.runsAlone) struct IngestWriterTests {
    @Test func eightThreadsEnqueueAndEveryEventIsPersistedOnce() throws {
        let folder = try TemporaryDirectory(prefix: "StoreTests")
        defer { folder.remove() }
        let store = try EventStore(path: folder.file("store.sqlite").path)
        let probe = IngestProbe()
        let writer = try probe.writer(store: store)
        let perThread = 2_000
        let accepted = LockedCounter()
        DispatchQueue.concurrentPerform(iterations: 8) { thread in
            for index in 0..<perThread where (try? writer.write(sampleEvent(thread * perThread + index))) != nil {
                accepted.add(1)
            }
        }
        #expect(accepted.value == 8 * perThread)
        #expect(writer.waitUntilPersisted(timeout: 15))
        #expect(store.counts().pending == 8 * perThread)
        let ids = try store.query(StoreQuery(limit: 100_000)).map(\.event.id)
        #expect(Set(ids).count == 8 * perThread)
        #expect(probe.persisted.count == 8 * perThread)
        #expect(writer.statistics.persisted == 8 * perThread && writer.statistics.journalled == 8 * perThread)
        #expect(writer.close())
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: store.path + ".journal")
        #expect(leftovers.isEmpty, "\(leftovers)")
    }

    @Test func bulkEnqueueKeepsOrder() throws {
        let folder = try TemporaryDirectory(prefix: "StoreTests")
        defer { folder.remove() }
        let store = try EventStore(path: folder.file("store.sqlite").path)
        let writer = try IngestWriter(store: store)
        let events = (0..<2_500).map { sampleEvent($0) }
        #expect(writer.write(contentsOf: events).written == events.count)
        #expect(writer.waitUntilPersisted(timeout: 10))
        #expect(try store.query(StoreQuery(limit: 10_000)).map(\.event.id) == events.map(\.id))
        #expect(writer.close())
    }

    @Test func leftoverJournalIsReplayedOnStart() throws {
        let folder = try TemporaryDirectory(prefix: "StoreTests")
        defer { folder.remove() }
        let path = folder.file("store.sqlite").path
        let events = (0..<1_500).map { sampleEvent($0) }
        do {
            // A previous run that died after journalling, before anything reached SQLite.
            let journal = try EventJournal(directory: path + ".journal")
            for event in events { try journal.append(event) }
        }
        let store = try EventStore(path: path)
        let writer = try IngestWriter(store: store)
        // Replayed before the writer takes new events: already in the store when init returns.
        #expect(store.counts().pending == events.count)
        #expect(writer.statistics.replayed == events.count)
        let next = sampleEvent(99_999)
        #expect(throws: Never.self) { try writer.write(next) }
        #expect(writer.waitUntilPersisted(timeout: 10))
        #expect(try store.query(StoreQuery(limit: 10_000)).map(\.event.id) == events.map(\.id) + [next.id])
        #expect(writer.close())
    }

    @Test func simulatedCrashLosesNothingAndDuplicatesNothing() throws {
        let folder = try TemporaryDirectory(prefix: "StoreTests")
        defer { folder.remove() }
        let path = folder.file("store.sqlite").path
        let events = (0..<5_000).map { sampleEvent($0) }
        do {
            let store = try EventStore(path: path)
            let writer = try IngestWriter(store: store, configuration: IngestConfiguration(batchSize: 100))
            for event in events { #expect(throws: Never.self) { try writer.write(event) } }
            // At least the 50 acknowledged below are in SQLite first, however slow the machine.
            let deadline = Date().addingTimeInterval(20)
            while writer.statistics.persisted < 50, Date() < deadline { usleep(1_000) }
            try #require(writer.statistics.persisted >= 50)
            writer.simulateCrash() // no close: some events are in SQLite, all are in the journal
            // Events acknowledged before the crash must not come back after it.
            let delivered = try store.claimBatch(limit: 50, maxBytes: .max, now: Date())
            try store.acknowledge(delivered.map(\.event.id))
            _ = try store.claimBatch(limit: 10, maxBytes: .max, now: Date()) // left in flight
            store.close() // the dead process's descriptors close, and its claim on the store ends
        }
        let store = try EventStore(path: path)
        let writer = try IngestWriter(store: store)
        #expect(writer.waitUntilPersisted(timeout: 10))
        let held = try store.query(StoreQuery(limit: 10_000)).filter { $0.status != .delivered }.map(\.event.id)
        #expect(Set(held).count == held.count)
        let deliveredBefore = Set(events.prefix(50).map(\.id))
        #expect(held.filter { deliveredBefore.contains($0) }.isEmpty)
        #expect(held.count == events.count - 50)
        #expect(store.counts().inFlight == 0)
        #expect(writer.close())
    }

    @Test func failingStoreKeepsEventsInTheJournalAndRecovers() throws {
        let folder = try TemporaryDirectory(prefix: "StoreTests")
        defer { folder.remove() }
        let store = try EventStore(path: folder.file("store.sqlite").path)
        try store.insert([sampleEvent()])
        try store.checkpoint()
        try store.limitPages(Int(store.fileBytes) / EventStoreSchema.pageSize + 1) // the disk is "full"
        let probe = IngestProbe()
        let writer = try probe.writer(store: store, configuration: IngestConfiguration(retryInterval: 0.02, maxRetryInterval: 0.05))
        let events = (0..<3_000).map { sampleEvent($0) }
        for event in events { #expect(throws: Never.self) { try writer.write(event) } }
        #expect(!writer.waitUntilPersisted(timeout: 0.3))
        #expect(writer.statistics.storeFailures > 0)
        #expect(probe.errors.contains { $0.contains("disk full") })
        try store.limitPages(1_000_000) // the fault clears
        #expect(writer.waitUntilPersisted(timeout: 10))
        #expect(store.counts().pending == events.count + 1)
        #expect(writer.close())
    }

    @Test func fullJournalDropsAndCounts() throws {
        let folder = try TemporaryDirectory(prefix: "StoreTests")
        defer { folder.remove() }
        let store = try EventStore(path: folder.file("store.sqlite").path)
        try store.checkpoint()
        // No page to grow into, and events too large for a page's free space (overflow pages).
        try store.limitPages(Int(store.fileBytes) / EventStoreSchema.pageSize)
        let probe = IngestProbe()
        let configuration = IngestConfiguration(retryInterval: 0.05, journal: JournalConfiguration(segmentBytes: 8_192, maxSegments: 2))
        let writer = try probe.writer(store: store, configuration: configuration)
        let large = String(repeating: "x", count: 6_000)
        var refused = 0
        var refusals: [JournalError] = []
        for index in 0..<200 {
            let event = EncodedEvent(TrackedEvent(category: "Basket", name: "checkout", action: "pay",
                                                  userData: ["item": .string("sku-\(index)"), "note": .string(large)]))
            do { try writer.write(event) } catch {
                refused += 1
                refusals.append(error)
            }
        }
        #expect(refused > 0)
        #expect(writer.statistics.journalled == 200 - refused)
        #expect(refusals.allSatisfy { "\($0)".contains("journal is full") })
        #expect(!writer.close(timeout: 0.5))
    }

    @Test func closeRefusesLaterEvents() throws {
        let folder = try TemporaryDirectory(prefix: "StoreTests")
        defer { folder.remove() }
        let store = try EventStore(path: folder.file("store.sqlite").path)
        let writer = try IngestWriter(store: store)
        #expect(throws: Never.self) { try writer.write(sampleEvent(1)) }
        #expect(writer.close())
        #expect(store.counts().pending == 1)
        #expect(throws: JournalError.closed) { try writer.write(sampleEvent(2)) }
        #expect(writer.statistics.journalled == 1)
    }

    /// A close asked for right after a write, racing the writer thread's last empty read, still
    /// persists the write: the writer decides to stop on what it knew before that read.
    @Test func closeRightAfterAWritePersistsItEveryTime() throws {
        var failures: [String] = []
        for round in 0..<400 {
            let folder = try TemporaryDirectory(prefix: "StoreTests")
            defer { folder.remove() }
            let store = try EventStore(path: folder.file("store.sqlite").path)
            let writer = try IngestWriter(store: store)
            try writer.write(sampleEvent(round))
            let closed = writer.close()
            let pending = store.counts().pending
            if !closed || pending != 1 { failures.append("round \(round): close \(closed), stored \(pending)") }
        }
        #expect(failures.isEmpty, "\(failures.count) of 400: \(failures.prefix(3))")
    }
}

/// A counter shared by threads.
final class LockedCounter: Sendable {
    private let count = LockedValue(0)
    var value: Int { count.withLock { $0 } }
    func add(_ amount: Int) { count.withLock { $0 += amount } }
}
