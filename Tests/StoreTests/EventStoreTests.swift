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

    @Test func corruptFileIsSetAsideAndAFreshStoreWorks() throws {
        let folder = try TemporaryDirectory(prefix: "StoreTests")
        defer { folder.remove() }
        let path = folder.file("store.sqlite").path
        var generator = SystemRandomNumberGenerator()
        // A store's own header (its signature) over damaged pages: set aside, unlike a file
        // without the signature (see StoreSignatureTests).
        do {
            let store = try EventStore(path: path)
            try store.checkpoint()
            store.close()
        }
        let header = try #require(FileManager.default.contents(atPath: path)).prefix(100)
        let garbage = Array(header) + (100..<65_536).map { _ in UInt8.random(in: 0...255, using: &generator) }
        #expect(FileManager.default.createFile(atPath: path, contents: Data(garbage)))
        #expect(FileManager.default.createFile(atPath: path + "-wal", contents: Data(garbage.prefix(1_000))))
        let store = try EventStore(path: path)
        let aside = try #require(store.recoveredFrom)
        #expect(aside.hasPrefix(path + ".corrupt-"))
        #expect(FileManager.default.contents(atPath: aside) == Data(garbage))
        #expect(FileManager.default.fileExists(atPath: aside + "-wal"))
        try store.insert([sampleEvent()])
        #expect(store.counts().pending == 1)
        #expect(try store.query(StoreQuery()).count == 1)
    }

    @Test func textFileIsRefusedAndLeftUntouched() throws {
        let folder = try TemporaryDirectory(prefix: "StoreTests")
        defer { folder.remove() }
        let path = folder.file("store.sqlite").path
        let text = Data(String(repeating: "this is not a database\n", count: 200).utf8)
        #expect(FileManager.default.createFile(atPath: path, contents: text))
        #expect(throws: StoreError.self) { _ = try EventStore(path: path) }
        #expect(FileManager.default.contents(atPath: path) == text)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["store.sqlite"])
    }

    @Test func damagedPagesAreSetAsideWhenFound() throws {
        let folder = try TemporaryDirectory(prefix: "StoreTests")
        defer { folder.remove() }
        let path = folder.file("store.sqlite").path
        let store = try EventStore(path: path)
        try store.insert((0..<2_000).map { sampleEvent($0) })
        try store.checkpoint()
        store.close()
        // Keep the header and the first five pages (schema, table roots, counters); damage the rest.
        let handle = try #require(FileHandle(forWritingAtPath: path))
        handle.seek(toFileOffset: 5 * 4_096)
        handle.write(Data(repeating: 0xA5, count: 200_000))
        handle.closeFile()
        let reopened = try EventStore(path: path)
        var reported: StoreError?
        for _ in 0..<3 where reopened.recoveredFrom == nil {
            do {
                _ = try reopened.query(StoreQuery(sort: .category, limit: 10_000))
                _ = try reopened.claimBatch(limit: 2_000, maxBytes: .max, now: Date())
            } catch let error as StoreError {
                reported = error
            }
        }
        let aside = try #require(reopened.recoveredFrom)
        #expect(FileManager.default.fileExists(atPath: aside))
        if let reported, case .corrupt(_, let setAside, _) = reported { #expect(setAside == aside) }
        try reopened.insert([sampleEvent(1)])
        #expect(reopened.counts().pending == 1)
        #expect(try reopened.query(StoreQuery()).count == 1)
    }

    /// Tests run as root, where `chmod 0500` does not stop writes. A probe write tells; when it
    /// is ignored, the store path goes *through a regular file* (`file.txt/store.sqlite`), a
    /// folder that cannot exist for anyone, root included.
    @Test func unwritableFolderThrowsAClearError() throws {
        let folder = try TemporaryDirectory(prefix: "StoreTests")
        defer { folder.remove() }
        let path: String
        if writesIgnorePermissions(in: folder) {
            #expect(FileManager.default.createFile(atPath: folder.file("file.txt").path, contents: Data("x".utf8)))
            path = folder.file("file.txt").path + "/store.sqlite"
        } else {
            let locked = folder.file("locked").path
            _ = chmod(locked, 0o500)
            path = locked + "/store.sqlite"
        }
        defer { _ = chmod(folder.file("locked").path, 0o700) }
        do {
            _ = try EventStore(path: path)
            Issue.record("expected an error")
        } catch let error as StoreError {
            guard case .cannotOpen(let failing, let reason, _) = error else {
                Issue.record("unexpected \(error)")
                return
            }
            #expect(path.hasPrefix(failing))
            #expect(!reason.isEmpty)
            #expect(error.description.contains("cannot open store"))
        }
    }

    @Test func fullDiskIsReportedAndTheStoreRecovers() throws {
        let folder = try TemporaryDirectory(prefix: "StoreTests")
        defer { folder.remove() }
        let store = try EventStore(path: folder.file("store.sqlite").path)
        try store.insert([sampleEvent()])
        try store.checkpoint()
        try store.limitPages(Int(store.fileBytes / 4_096) + 1)
        do {
            try store.insert((0..<5_000).map { sampleEvent($0) })
            Issue.record("expected a full disk")
        } catch let error as StoreError {
            guard case .diskFull = error else {
                Issue.record("unexpected \(error)")
                return
            }
        }
        #expect(store.counts().pending == 1)
        #expect(try store.query(StoreQuery()).count == 1)
        try store.limitPages(1_000_000)
        try store.insert((0..<5_000).map { sampleEvent($0) })
        #expect(store.counts().pending == 5_001)
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
