@testable import Dispatcher
import Foundation
import Testing
import TestSupport
import Tracking

/// A store file or the journal folder deleted while the Dispatcher runs: noticed, made again
/// (same protections), what went with it counted and reported, and later events persisted and
/// delivered. The store's case also through a real `demo generate`, whose summary and exit
/// status say what was lost.
@Suite("Reliability: store and journal deleted while running", .serialized, .runsAlone)
struct VanishedStorageTests {
    static func mode(_ path: String) -> mode_t? {
        var info = stat()
        return stat(path, &info) == 0 ? info.st_mode & 0o777 : nil
    }

    @Test("A store file and its log deleted while events flow: a new store, the events the old one held counted lost and reported, later ones persisted and delivered")
    func storeDeletedInProcess() async throws {
        let directory = try TemporaryDirectory(prefix: "vanished-store")
        defer { directory.remove() }
        let storePath = directory.file("store.sqlite").path
        let outbox = directory.file("outbox.ndjson")
        let log = DiagnosticLog()
        let dispatcher = try Dispatcher(configuration: DispatcherConfiguration(
            storePath: storePath, destination: NDJSONFileDestination(fileURL: outbox), onDiagnostic: log.handler))
        dispatcher.pause()
        let before = StorageFaultTests.sendProbes(500, through: dispatcher)
        #expect(before.allSatisfy { $0 != nil })
        #expect(dispatcher.backend?.ingest.waitUntilPersisted(timeout: 20) == true)
        #expect(dispatcher.counters.store.pending == 500)

        #expect(unlink(storePath) == 0)
        #expect(unlink(storePath + "-wal") == 0)
        // A drain checks the store file before it says everything is persisted.
        _ = await dispatcher.drain(timeout: 20)
        #expect(dispatcher.counters.lostWithStore == 500, "\(dispatcher.counters)")
        #expect(log.contains("was deleted or replaced while open: the 500 events it held are lost"), "\(log.messages)")
        #expect(FileManager.default.fileExists(atPath: storePath))
        #expect(Self.mode(storePath) == 0o600)

        let after = StorageFaultTests.sendProbes(300, through: dispatcher, from: 500)
        #expect(after.allSatisfy { $0 != nil })
        #expect(await dispatcher.drain(timeout: 20).persisted)
        #expect(dispatcher.counters.lostWithStore == 500, "\(dispatcher.counters)")
        #expect(dispatcher.counters.store.pending == 300, "\(dispatcher.counters)")
        dispatcher.resume()
        _ = await dispatcher.drain(timeout: 20).report
        let delivered = try NDJSONOutbox.deliveries(in: outbox)
        let later = Set(after.compactMap { $0.map { EventID.text($0.eventID) } })
        #expect(Set(delivered.keys) == later, "delivered \(delivered.count), expected the \(later.count) sent after the deletion")
        await dispatcher.close()
    }

    @Test("A journal folder deleted while running is made again (0700): every later event is persisted, none refused")
    func journalFolderDeleted() async throws {
        let directory = try TemporaryDirectory(prefix: "vanished-journal")
        defer { directory.remove() }
        let storePath = directory.file("store.sqlite").path
        let journal = storePath + ".journal"
        let log = DiagnosticLog()
        // 64 KiB segments: the events after the deletion need several new ones.
        let dispatcher = try Dispatcher(configuration: DispatcherConfiguration(
            storePath: storePath, batch: BatchConfiguration(maxQueueBytes: 512 << 10), onDiagnostic: log.handler))
        _ = StorageFaultTests.sendProbes(200, through: dispatcher)
        #expect(await dispatcher.drain(timeout: 20).persisted)
        try FileManager.default.removeItem(atPath: journal)

        let after = StorageFaultTests.sendProbes(3_000, through: dispatcher, from: 200)
        #expect(after.allSatisfy { $0 != nil })
        #expect(await dispatcher.drain(timeout: 20).persisted, "\(dispatcher.counters) \(log.messages)")
        let counters = dispatcher.counters
        #expect(counters.persisted == 3_200, "\(counters)")
        #expect(counters.refused == 0 && counters.buffered == 0, "\(counters)")
        #expect(Self.mode(journal) == 0o700)
        #expect(log.contains("journal"), "\(log.messages)")
        #expect(Set(try dispatcher.storedIDs()).isSuperset(of: after.compactMap { $0?.eventID }))
        await dispatcher.close()
    }

    @Test("demo generate: the store deleted mid-run is made again, the summary counts the events lost with it, exit 1")
    func storeDeletedUnderGenerate() async throws {
        let directory = try TemporaryDirectory(prefix: "vanished-generate")
        defer { directory.remove() }
        let storePath = directory.file("s.sqlite").path
        let total = 200_000
        let child = try DemoProcess(["generate", "--count", String(total), "--store", storePath])
        // Once the store holds rows: its log has grown.
        let deadline = Date().addingTimeInterval(60)
        while (FileIdentity(path: storePath + "-wal")?.size ?? 0) < 512 << 10, Date() < deadline {
            try await Task.sleep(nanoseconds: 5_000_000)
        }
        #expect(unlink(storePath) == 0)
        #expect(unlink(storePath + "-wal") == 0)
        let status = await child.wait(timeout: 180)
        let errors = child.standardError
        #expect(status == 1, "\(errors.suffix(800))")
        #expect(errors.contains("was deleted or replaced while open"), "\(errors.suffix(800))")
        let lost = JournalDamageTests.count("persisted events went with a store file", in: errors) ?? 0
        #expect(lost > 0, "\(errors.suffix(800))")
        let store = try EventStore(path: storePath, readOnly: true)
        #expect(store.counts().pending == total - lost, "lost \(lost)")
        // The summary counts as persisted only what a store has.
        let persisted = errors.range(of: "persisted ").flatMap { Int(errors[$0.upperBound...].prefix { $0.isNumber }) }
        #expect(persisted == total - lost, "\(errors.suffix(800))")
        store.close()
    }
}
