@testable import Dispatcher
import Foundation
import Testing
import TestSupport
import Tracking

/// Storage that is damaged or cannot be written: the Dispatcher never crashes, says what is
/// wrong, keeps events in memory within bounds, and recovers by itself.
@Suite("Reliability: StorageFault", .serialized, .runsAlone)
struct StorageFaultTests {
    private static func sendProbes(_ count: Int, through dispatcher: Dispatcher, from start: Int = 0) -> [Receipt?] {
        (start..<start + count).map { index in
            dispatcher.send(TrackedEvent(category: Probe.category, name: "view", action: "open", userData: ["index": .int(index)]))
        }
    }

    /// The files in `directory` whose name starts with `prefix`.
    private static func files(in directory: TemporaryDirectory, startingWith prefix: String) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: directory.url.path).filter { $0.hasPrefix(prefix) }.sorted()
    }

    /// A damaged store file is renamed aside (kept, unchanged) and a fresh store takes events.
    private func expectSetAside(damaged contents: [UInt8], label: String) async throws {
        let directory = try TemporaryDirectory(prefix: "reliability-\(label)")
        defer { directory.remove() }
        let storePath = directory.file("store.sqlite").path
        try Data(contents).write(to: URL(fileURLWithPath: storePath))
        let log = DiagnosticLog()
        let dispatcher = try Dispatcher(configuration: DispatcherConfiguration(
            storePath: storePath, storageRetryInterval: 0.2, onDiagnostic: log.handler))
        #expect(dispatcher.storage == .available, "\(label): \(dispatcher.storage)")
        let store = try #require(dispatcher.store)
        let aside = try #require(store.recoveredFrom, "\(label): the damaged file was not set aside")
        #expect(aside.hasPrefix(storePath + ".corrupt-"))
        #expect(try Data(contentsOf: URL(fileURLWithPath: aside)) == Data(contents), "\(label): the set-aside file changed")
        #expect(try Self.files(in: directory, startingWith: "store.sqlite.corrupt-").contains((aside as NSString).lastPathComponent))
        #expect(log.contains("set aside"), "\(label): no diagnostic, got \(log.messages)")

        let receipts = Self.sendProbes(40, through: dispatcher)
        #expect(receipts.allSatisfy { $0?.form == "journal" })
        let drained = await dispatcher.drain(timeout: 10)
        #expect(drained.persisted)
        #expect(Set(try dispatcher.storedIDs()) == Set(receipts.compactMap { $0?.eventID }))
        await dispatcher.close()
    }

    /// A file without the store's signature: the Dispatcher refuses it (init throws, naming the
    /// reason) and the file stays as it was, with nothing created beside it.
    private func expectRefused(_ contents: [UInt8], label: String) throws {
        let directory = try TemporaryDirectory(prefix: "reliability-\(label)")
        defer { directory.remove() }
        let storePath = directory.file("store.sqlite").path
        try Data(contents).write(to: URL(fileURLWithPath: storePath))
        let log = DiagnosticLog()
        var message: String?
        do {
            let dispatcher = try Dispatcher(configuration: DispatcherConfiguration(
                storePath: storePath, storageRetryInterval: 0.2, onDiagnostic: log.handler))
            message = nil
            _ = dispatcher
        } catch {
            message = "\(error)"
        }
        #expect(message?.contains("is not an event store") == true, "\(label): \(message ?? "the Dispatcher opened it")")
        #expect(try Data(contentsOf: URL(fileURLWithPath: storePath)) == Data(contents), "\(label): the file changed")
        #expect(try Self.files(in: directory, startingWith: "") == ["store.sqlite"], "\(label): files were created or renamed")
    }

    @Test("A file of random bytes is not a store: refused, left untouched")
    func randomBytes() throws {
        var random = SeededGenerator(seed: 0x5EED_0001)
        try expectRefused(random.bytes(64 * 1024), label: "random-bytes")
    }

    @Test("A text file that is not a database is refused and left untouched")
    func notADatabase() throws {
        let text = String(repeating: "This is a shopping list, not a database. Milk, eggs, bread.\n", count: 200)
        try expectRefused(Array(text.utf8), label: "text-file")
    }

    @Test("A real store whose schema pages are overwritten with random bytes is set aside")
    func scrambledStore() async throws {
        let source = try TemporaryDirectory(prefix: "reliability-scrambled-source")
        defer { source.remove() }
        let storePath = source.file("store.sqlite").path
        let writer = try Dispatcher(configuration: DispatcherConfiguration(storePath: storePath))
        _ = Self.sendProbes(200, through: writer)
        _ = await writer.drain(timeout: 10)
        await writer.close()
        var bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: storePath)))
        try #require(bytes.count > 4096)
        // Keep the 100-byte header (so it still looks like SQLite), scramble the rest of page 1
        // (the schema) and page 2.
        var random = SeededGenerator(seed: 0x5EED_0002)
        for index in 100..<min(bytes.count, 8192) { bytes[index] = UInt8.random(in: 0...255, using: &random) }
        try await expectSetAside(damaged: bytes, label: "scrambled")
    }

    @Test("Damage found while running (scrambled data pages): the store is set aside, a fresh one takes over, new events are delivered")
    func damageFoundWhileRunning() async throws {
        let directory = try TemporaryDirectory(prefix: "reliability-damage-later")
        defer { directory.remove() }
        let storePath = directory.file("store.sqlite").path
        let writer = try Dispatcher(configuration: DispatcherConfiguration(storePath: storePath))
        let old = Set((0..<3_000).compactMap { index in
            writer.send(TrackedEvent(category: Probe.category, name: "view", action: "open",
                                     userData: ["index": .int(index), "padding": .string(String(repeating: "x", count: 200))]))?.eventID
        })
        #expect(await writer.drain(timeout: 10).persisted)
        await writer.close()

        // Keep the first pages (header, schema, counters), scramble the second half of the file,
        // where the newest rows' pages are: damage SQLite only meets when it reads them.
        var bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: storePath)))
        let pageSize = max(512, Int(bytes[16]) << 8 | Int(bytes[17]))
        try #require(bytes.count >= 8 * pageSize, "store too small: \(bytes.count) bytes")
        var random = SeededGenerator(seed: 0x5EED_0004)
        for index in (bytes.count / 2 / pageSize * pageSize)..<bytes.count { bytes[index] = UInt8.random(in: 0...255, using: &random) }
        try Data(bytes).write(to: URL(fileURLWithPath: storePath))
        try? FileManager.default.removeItem(atPath: storePath + "-wal")
        try? FileManager.default.removeItem(atPath: storePath + "-shm")

        let outbox = directory.file("outbox.ndjson")
        let log = DiagnosticLog()
        let dispatcher = try Dispatcher(configuration: DispatcherConfiguration(
            storePath: storePath, destination: NDJSONFileDestination(fileURL: outbox),
            batch: BatchConfiguration(deliverySize: 500, flushInterval: 0), storageRetryInterval: 0.2, onDiagnostic: log.handler))
        let fresh = Self.sendProbes(50, through: dispatcher, from: 10_000).compactMap { $0?.eventID }
        #expect(fresh.count == 50)
        let settled = await dispatcher.flushUntilSettled(timeout: 15)
        #expect(settled, "not settled: \(dispatcher.counters.store), diagnostics \(log.messages.suffix(3))")
        #expect(dispatcher.storage == .available)
        let store = try #require(dispatcher.store)
        let aside = try #require(store.recoveredFrom, "the damage was never found: \(log.messages)")
        #expect(FileManager.default.fileExists(atPath: aside))
        #expect(log.contains("corrupt") || log.contains("set aside"), "no diagnostic: \(log.messages)")

        // Every new event was delivered; old ones delivered before the damage was found are
        // genuine; nothing was written twice.
        let lines = try String(contentsOf: outbox, encoding: .utf8).split(separator: "\n")
        let delivered = try lines.map { line -> UUID in
            guard case .object(let members) = try JSONValueParser.parse(Array(line.utf8)),
                  let id = members["id"]?.stringValue.flatMap(UUID.init(uuidString:)) else { throw SegmentCapture.Malformed(description: String(line.prefix(200))) }
            return id
        }
        #expect(Set(fresh).isSubset(of: Set(delivered)), "\(Set(fresh).subtracting(delivered).count) new events were not delivered")
        #expect(Set(delivered).isSubset(of: old.union(fresh)), "an unknown event was delivered")
        #expect(delivered.count == Set(delivered).count, "an event was delivered twice")
        await dispatcher.close()
    }

    @Test("A truncated WAL: the store reopens, keeps a consistent prefix of what was written, and takes new events")
    func truncatedWriteAheadLog() async throws {
        let directory = try TemporaryDirectory(prefix: "reliability-wal")
        defer { directory.remove() }
        let storePath = directory.file("store.sqlite").path
        let writer = try Dispatcher(configuration: DispatcherConfiguration(storePath: storePath))
        let sent = Self.sendProbes(300, through: writer).compactMap { $0?.eventID }
        #expect(Set(sent).count == 300)
        #expect(await writer.drain(timeout: 10).persisted)

        // Copy the files of the still-open store, as a crash would leave them, then cut the WAL.
        var random = SeededGenerator(seed: 0x5EED_0003)
        let walBytes = (try? Data(contentsOf: URL(fileURLWithPath: storePath + "-wal")).count) ?? 0
        #expect(walBytes > 0, "the store left no WAL to cut")
        var cuts = [0, 32, 4096 + 24 + 17]
        if walBytes > 64 { cuts.append(Int.random(in: 33..<walBytes, using: &random)) }
        for cut in cuts {
            let copy = try TemporaryDirectory(prefix: "reliability-wal-copy")
            defer { copy.remove() }
            let copyPath = copy.file("store.sqlite").path
            try FileManager.default.copyItem(atPath: storePath, toPath: copyPath)
            if walBytes > 0 {
                try FileManager.default.copyItem(atPath: storePath + "-wal", toPath: copyPath + "-wal")
                let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: copyPath + "-wal"))
                try handle.truncate(atOffset: UInt64(min(cut, walBytes)))
                try handle.close()
            }
            try expectConsistentReopen(copyPath, sent: sent, label: "WAL cut at \(cut) of \(walBytes) bytes")
            let reopened = try Dispatcher(configuration: DispatcherConfiguration(storePath: copyPath))
            #expect(reopened.storage == .available)
            let before = try reopened.storedIDs().count
            let more = Self.sendProbes(25, through: reopened, from: 1_000).compactMap { $0?.eventID }
            #expect(await reopened.drain(timeout: 10).persisted)
            let after = try reopened.storedIDs()
            #expect(after.count == before + 25 && Set(more).isSubset(of: Set(after)), "WAL cut at \(cut): new events not stored")
            await reopened.close()
        }
        await writer.close()

        // After a clean close, cutting whatever WAL remains does not hurt either.
        if FileManager.default.fileExists(atPath: storePath + "-wal") {
            let size = try Data(contentsOf: URL(fileURLWithPath: storePath + "-wal")).count
            let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: storePath + "-wal"))
            try handle.truncate(atOffset: UInt64(size / 2))
            try handle.close()
        }
        try expectConsistentReopen(storePath, sent: sent, label: "after a clean close")
        let closedCleanly = try Dispatcher(configuration: DispatcherConfiguration(storePath: storePath))
        #expect(Set(try closedCleanly.storedIDs()) == Set(sent), "a cleanly closed store lost events")
        await closedCleanly.close()
    }

    /// Opens the store at `path` directly: it must open, and hold a prefix of the events sent,
    /// in order, with counters that agree.
    private func expectConsistentReopen(_ path: String, sent: [UUID], label: String) throws {
        let store = try EventStore(path: path)
        defer { store.close() }
        let rows = try store.query(StoreQuery(limit: 10_000))
        #expect(rows.map(\.event.id) == Array(sent.prefix(rows.count)), "\(label): not a prefix of what was sent")
        #expect(store.counts().pending == rows.count, "\(label): counters \(store.counts()) but \(rows.count) rows")
        #expect(rows.allSatisfy { (try? $0.event.decoded()) != nil }, "\(label): a row does not decode")
        print("storage fault: \(label): reopened with \(rows.count) of \(sent.count) rows")
    }

    @Test("An unusable folder: reported, events wait in memory up to the bound, then move to the store once it clears")
    func unusableFolderRecovers() async throws {
        let directory = try TemporaryDirectory(prefix: "reliability-blocked")
        defer { directory.remove() }
        // A regular file where the store's folder should be: nothing can be created under it
        // (chmod would not stop root, this does).
        let blocker = directory.file("blocker")
        try Data("not a folder".utf8).write(to: blocker)
        let storePath = blocker.appendingPathComponent("store.sqlite").path
        let log = DiagnosticLog()
        let dispatcher = try Dispatcher(configuration: DispatcherConfiguration(
            storePath: storePath, batch: BatchConfiguration(overflowQueueSize: 100), storageRetryInterval: 0.2,
            onDiagnostic: log.handler))

        guard case .unavailable(let reason) = dispatcher.storage else {
            Issue.record("storage should be unavailable, is \(dispatcher.storage)")
            return
        }
        #expect(reason.contains(blocker.path) && reason.contains("not a folder"), "unclear reason: \(reason)")
        #expect(log.contains("cannot be opened"), "no diagnostic: \(log.messages)")
        #expect(dispatcher.store == nil)

        let receipts = Self.sendProbes(150, through: dispatcher)
        #expect(receipts.prefix(100).allSatisfy { $0?.form == "memory" })
        #expect(receipts.suffix(50).allSatisfy { $0 == nil })
        var counters = dispatcher.counters
        #expect(counters.buffered == 100 && counters.refused == 50 && counters.sent == 150, "\(counters)")
        let flushed = await dispatcher.flush(timeout: 1)
        #expect(flushed.stopReason == .queueError)

        // Still blocked after a few retry intervals: nothing changes, nothing crashes.
        try await Task.sleep(nanoseconds: 500_000_000)
        #expect(dispatcher.storage != .available)
        #expect(dispatcher.counters.buffered == 100)

        // Clear the fault: the Dispatcher recovers by itself.
        try FileManager.default.removeItem(at: blocker)
        try FileManager.default.createDirectory(at: blocker, withIntermediateDirectories: false)
        let deadline = Date().addingTimeInterval(10)
        while dispatcher.storage != .available, Date() < deadline { try await Task.sleep(nanoseconds: 50_000_000) }
        #expect(dispatcher.storage == .available)
        #expect(await dispatcher.drain(timeout: 10).persisted)
        counters = dispatcher.counters
        #expect(counters.buffered == 0 && counters.movedFromMemory == 100 && counters.refused == 50, "\(counters)")
        let expected = receipts.prefix(100).compactMap { $0?.eventID }
        #expect(try dispatcher.storedIDs() == expected, "the buffered events are not in the store, in order")
        #expect(log.contains("available again"), "no recovery diagnostic: \(log.messages)")

        // And it works normally afterwards.
        let later = Self.sendProbes(10, through: dispatcher, from: 500)
        #expect(later.allSatisfy { $0?.form == "journal" })
        #expect(await dispatcher.drain(timeout: 10).persisted)
        #expect(try dispatcher.storedIDs().count == 110)
        await dispatcher.close()
    }

    @Test("Recovery while eight threads keep sending: every event whose send returned a receipt reaches the store, none is stranded in memory")
    func recoveryWhileSending() async throws {
        // The race this looks for lives at the instant of recovery: try it a dozen times.
        for round in 0..<12 {
            let directory = try TemporaryDirectory(prefix: "reliability-recovery-\(round)")
            defer { directory.remove() }
            let blocker = directory.file("blocker")
            try Data("not a folder".utf8).write(to: blocker)
            let dispatcher = try Dispatcher(configuration: DispatcherConfiguration(
                storePath: blocker.appendingPathComponent("store.sqlite").path,
                batch: BatchConfiguration(overflowQueueSize: 200_000), storageRetryInterval: 0.05))
            #expect(dispatcher.storage != .available)
            let stop = StopFlag()
            let clearing = Task {
                try? await Task.sleep(nanoseconds: 100_000_000)
                try? FileManager.default.removeItem(at: blocker)
                try? FileManager.default.createDirectory(at: blocker, withIntermediateDirectories: false)
                let deadline = Date().addingTimeInterval(10)
                while dispatcher.storage != .available, Date() < deadline { try? await Task.sleep(nanoseconds: 5_000_000) }
                try? await Task.sleep(nanoseconds: 50_000_000)
                stop.raise()
            }
            let accepted = await SenderThreads.run(8) { thread in
                var ids: [UUID] = []
                var index = 0
                while !stop.isRaised, index < 10_000 {
                    let event = TrackedEvent(category: Probe.category, name: "tap", action: "other",
                                             userData: ["thread": .int(thread), "index": .int(index)])
                    if let receipt = dispatcher.send(event) { ids.append(receipt.eventID) }
                    index += 1
                }
                return ids
            }.flatMap { $0 }
            await clearing.value
            #expect(dispatcher.storage == .available, "round \(round): never recovered")
            #expect(await dispatcher.drain(timeout: 15).persisted)
            let counters = dispatcher.counters
            let stored = Set(try dispatcher.storedIDs())
            let missing = accepted.filter { !stored.contains($0) }
            #expect(counters.buffered == 0, "round \(round): \(counters.buffered) events stranded in memory after recovery")
            #expect(missing.isEmpty, "round \(round): \(missing.count) of \(accepted.count) accepted events are not in the store")
            #expect(counters.refused == 0 && counters.sent == accepted.count, "round \(round): \(counters)")
            await dispatcher.close()
        }
    }
}
