@testable import Dispatcher
import Foundation
import TestSupport
import Testing
import Tracking

/// Deletions for privacy asked for while the store is not in place (opening in the background,
/// released for suspension): applied before anything can be delivered, every one of them, and
/// kept on disk until applied.
@Suite("Dispatcher: deletions asked for while the store is not open", .serialized)
struct PendingErasureTests {
    private func event(_ index: Int) -> TrackedEvent {
        TrackedEvent(category: "Checkout", name: "pay", action: "tap", userData: ["i": .int(index)])
    }

    /// Leaves `count` pending events and a metadata entry in the store at `path`.
    private func seed(_ path: String, count: Int) async throws {
        let dispatcher = try Dispatcher(configuration: DispatcherConfiguration(storePath: path))
        for index in 0..<count { _ = dispatcher.send(event(index)) }
        #expect(await dispatcher.drain(timeout: 30).persisted)
        try #require(dispatcher.store).setMetadata("user", "before-purge")
        await dispatcher.close()
    }

    /// A Dispatcher delivering to `server` at once when it opens (`.boot`), opened in the
    /// background and held just before its store is put in place until `latch` is signalled;
    /// returns once the opening is held there.
    private func heldAtInstall(_ path: String, server: LoopbackHTTPServer, latch: DispatchSemaphore) throws -> Dispatcher {
        let reached = DispatchSemaphore(value: 0)
        var configuration = DispatcherConfiguration(
            storePath: path, destination: try SegmentDestination(endpoint: server.baseURL, writeKey: "key"),
            batch: BatchConfiguration(deliverySize: 50, flushInterval: 0), strategy: [.boot])
        configuration.opensStorageInBackground = true
        let dispatcher = try Dispatcher.$beforeBackgroundInstall.withValue({
            reached.signal()
            _ = latch.wait(timeout: .now() + 20)
        }) {
            try Dispatcher(configuration: configuration)
        }
        #expect(reached.wait(timeout: .now() + 20) == .success)
        return dispatcher
    }

    private func noted(_ dispatcher: Dispatcher) -> PendingErasure {
        dispatcher.state.withLock { $0.pendingErasure }
    }

    @Test("A purge noted while the opened store waits to be put in place is applied before the boot delivery")
    func purgeNotedAtInstall() async throws {
        let directory = try TemporaryDirectory(prefix: "erasure-at-install")
        defer { directory.remove() }
        let path = directory.file("store.sqlite").path
        try await seed(path, count: 20)
        let server = try LoopbackHTTPServer()
        defer { server.stop() }
        let latch = DispatchSemaphore(value: 0)
        let dispatcher = try heldAtInstall(path, server: server, latch: latch)
        let purging = Task { try await dispatcher.purge() }
        #expect(await eventually(timeout: 10) { noted(dispatcher).events })
        // What the store holds at the moment it is put in place, seen by a thread watching for it.
        let atInstall = LockedValue<Int?>(nil)
        let watched = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            let deadline = Date().addingTimeInterval(10)
            while Date() < deadline {
                if let store = dispatcher.store {
                    atInstall.withLock { $0 = store.counts().total }
                    break
                }
            }
            watched.signal()
        }
        latch.signal()
        try await purging.value
        #expect(await dispatcher.storageReady() == .available)
        _ = watched.wait(timeout: .now() + 15)
        #expect(atInstall.withLock { $0 } == 0, "the store held events stored before purge() when it was put in place")
        try await Task.sleep(nanoseconds: 500_000_000)
        #expect(server.requests.isEmpty, "\(server.requests.count) requests carried events stored before purge()")
        #expect(dispatcher.counters.store.total == 0)
        #expect(try dispatcher.store?.metadata("user") == nil)
        #expect(noted(dispatcher).isEmpty)
        #expect(!FileManager.default.fileExists(atPath: path + ".erasure"), "the marker is removed once applied")
        await dispatcher.close()
    }

    @Test("Two deletions noted by different callers while opening are both applied")
    func concurrentDeletionsAllApplied() async throws {
        let directory = try TemporaryDirectory(prefix: "erasure-concurrent")
        defer { directory.remove() }
        let path = directory.file("store.sqlite").path
        try await seed(path, count: 5)
        let server = try LoopbackHTTPServer()
        defer { server.stop() }
        let latch = DispatchSemaphore(value: 0)
        let dispatcher = try heldAtInstall(path, server: server, latch: latch)
        let keeping = Task { try await dispatcher.deleteAllEvents() }
        #expect(await eventually(timeout: 10) { noted(dispatcher).events })
        let purging = Task { try await dispatcher.purge() }
        #expect(await eventually(timeout: 10) { noted(dispatcher).metadata })
        latch.signal()
        try await keeping.value
        try await purging.value
        #expect(dispatcher.counters.store.total == 0)
        #expect(try dispatcher.store?.metadata("user") == nil, "the purge's deletion of the metadata ran")
        await dispatcher.close()
    }

    @Test("A purge while the storage is released survives the process ending before it is taken back")
    func purgeWhileReleasedSurvivesARestart() async throws {
        let directory = try TemporaryDirectory(prefix: "erasure-durable")
        defer { directory.remove() }
        let path = directory.file("store.sqlite").path
        try await seed(path, count: 10)
        let first = try Dispatcher(configuration: DispatcherConfiguration(storePath: path))
        #expect(await first.releaseStorageForSuspension())
        try await first.purge()
        let marker = path + ".erasure"
        #expect(FileManager.default.fileExists(atPath: marker))
        let mode = (try? FileManager.default.attributesOfItem(atPath: marker))?[.posixPermissions] as? Int
        #expect(mode == 0o600)
        // The process ends here without taking the storage back: only the marker remembers.
        let server = try LoopbackHTTPServer()
        defer { server.stop() }
        let next = try Dispatcher(configuration: DispatcherConfiguration(
            storePath: path, destination: try SegmentDestination(endpoint: server.baseURL, writeKey: "key"),
            batch: BatchConfiguration(deliverySize: 50, flushInterval: 0), strategy: [.boot]))
        #expect(next.counters.store.total == 0)
        #expect(try next.store?.metadata("user") == nil)
        #expect(!FileManager.default.fileExists(atPath: marker))
        try await Task.sleep(nanoseconds: 300_000_000)
        #expect(server.requests.isEmpty)
        let later = event(99)
        _ = next.send(later)
        _ = await next.drain(timeout: 10)
        #expect(await eventually(timeout: 10) { server.requests.count == 1 }, "what is sent after the restart is kept and sent")
        let body = server.requests.first.map { String(decoding: $0.body, as: UTF8.self) } ?? ""
        #expect(body.contains(later.id.uuidString.lowercased()))
        await next.close()
        await first.close()
    }

    @Test("The marker is written without following a link put in its way, and an unreadable one asks for everything")
    func markerRefusesLinks() throws {
        let directory = try TemporaryDirectory(prefix: "erasure-marker")
        defer { directory.remove() }
        let marker = ErasureMarker(storePath: directory.file("store.sqlite").path)
        let victim = try directory.write("keep me\n", to: "victim.txt")
        try FileManager.default.createSymbolicLink(atPath: marker.path + ".new", withDestinationPath: victim.path)
        var pending = PendingErasure()
        pending.heldCategories = ["Ads"]
        try marker.write(pending)
        #expect(try String(contentsOf: victim, encoding: .utf8) == "keep me\n")
        #expect(try marker.read() == pending)
        _ = try directory.write("{not json", to: "store.sqlite.erasure")
        #expect(try marker.read() == .everything)
        marker.remove()
        #expect(try marker.read().isEmpty)
        // A file where the store's folder should be (or no folder): no marker, nothing asked for.
        let blocked = try directory.write("a file", to: "data")
        #expect(try ErasureMarker(storePath: blocked.path + "/store.sqlite").read().isEmpty)
    }
}
