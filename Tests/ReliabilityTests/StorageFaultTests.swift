@testable import Dispatcher
import Foundation
import Testing
import TestSupport
import Tracking

/// Storage that is damaged or cannot be written: the Dispatcher never crashes, says what is
/// wrong, keeps events in memory within bounds, and recovers by itself.
@Suite("Reliability: StorageFault", .serialized, .runsAlone)
struct StorageFaultTests {
    static func sendProbes(_ count: Int, through dispatcher: Dispatcher, from start: Int = 0) -> [Receipt?] {
        (start..<start + count).map { index in
            dispatcher.send(TrackedEvent(category: Probe.category, name: "view", action: "open", userData: ["index": .int(index)]))
        }
    }

    /// The files in `directory` whose name starts with `prefix`.
    static func files(in directory: TemporaryDirectory, startingWith prefix: String) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: directory.url.path).filter { $0.hasPrefix(prefix) }.sorted()
    }

    /// A damaged store file is renamed aside (kept, unchanged) and a fresh store takes events.
    func expectSetAside(damaged contents: [UInt8], label: String) async throws {
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
    func expectRefused(_ contents: [UInt8], label: String) throws {
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
    func expectConsistentReopen(_ path: String, sent: [UUID], label: String) throws {
        let store = try EventStore(path: path)
        defer { store.close() }
        let rows = try store.query(StoreQuery(limit: 10_000))
        #expect(rows.map(\.event.id) == Array(sent.prefix(rows.count)), "\(label): not a prefix of what was sent")
        #expect(store.counts().pending == rows.count, "\(label): counters \(store.counts()) but \(rows.count) rows")
        #expect(rows.allSatisfy { (try? $0.event.decoded()) != nil }, "\(label): a row does not decode")
        print("storage fault: \(label): reopened with \(rows.count) of \(sent.count) rows")
    }
}
