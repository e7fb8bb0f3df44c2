@testable import Dispatcher
import Foundation
import Testing
import TestSupport
import Tracking

/// One store has one writer: a second one, in another process or the same, is refused at once
/// with "store in use by process N" and nothing is lost or counted twice.
@Suite("Integrity: two writers on one store", .serialized, .runsAlone)
struct TwoWriterTests {
    @Test("A second Dispatcher on the same store is refused with the owner's pid until the first closes")
    func secondDispatcherIsRefused() async throws {
        let directory = try TemporaryDirectory(prefix: "two-writers")
        defer { directory.remove() }
        let storePath = directory.file("store.sqlite").path
        let first = try Dispatcher(configuration: DispatcherConfiguration(storePath: storePath))
        #expect(first.send(TrackedEvent(category: "Probe", name: "view", action: "open")) != nil)
        do {
            _ = try Dispatcher(configuration: DispatcherConfiguration(storePath: storePath))
            Issue.record("a second writer was allowed on the same store")
        } catch let error as StoreError {
            guard case .inUse(_, let pid) = error else { throw error }
            #expect(pid == getpid())
            #expect("\(error)".contains("store in use by process \(getpid())"), "\(error)")
        }
        // A reader is not a writer: the monitor's read-only open still works.
        let reader = try EventStore(path: storePath, readOnly: true)
        reader.close()
        await first.close()
        let second = try Dispatcher(configuration: DispatcherConfiguration(storePath: storePath))
        #expect(second.counters.store.pending == 1)
        await second.close()
    }

    @Test("Two demo generate processes on one store: the second is refused at once, naming the first; the store holds exactly the first's events")
    func twoProcessesOnOneStore() async throws {
        let directory = try TemporaryDirectory(prefix: "two-processes")
        defer { directory.remove() }
        let storePath = directory.file("store.sqlite").path
        let first = try DemoProcess(["generate", "--count", "200000", "--store", storePath, "--print-ids"])
        // The first has the store open once it printed ids.
        #expect(await first.waitForLines(100, timeout: 60) >= 100, "\(first.standardError)")
        let second = try DemoProcess(["generate", "--count", "50000", "--store", storePath, "--print-ids"])
        let secondStatus = await second.wait(timeout: 30)
        #expect(secondStatus == 1, "\(second.standardError)")
        #expect(second.standardError.contains("store in use by process \(first.pid)"), "\(second.standardError)")
        #expect(second.outputLines.filter { !$0.isEmpty }.isEmpty, "the refused process sent events")
        let firstStatus = await first.wait(timeout: 180)
        #expect(firstStatus == 0, "\(first.standardError.suffix(400))")
        #expect(first.standardError.contains("sent 200000, persisted 200000, refused 0"), "\(first.standardError.suffix(400))")

        let store = try EventStore(path: storePath, readOnly: true)
        let counts = store.counts()
        store.close()
        #expect(counts.pending == 200_000, "\(counts)")
    }

    @Test("Two demo flush processes on one store: the second is refused at once; every event arrives, none twice")
    func twoFlushesOnOneStore() async throws {
        let directory = try TemporaryDirectory(prefix: "two-flushes")
        defer { directory.remove() }
        let storePath = directory.file("store.sqlite").path
        let generate = try DemoProcess(["generate", "--count", "5000", "--store", storePath])
        #expect(await generate.wait(timeout: 60) == 0, "\(generate.standardError)")

        // The collector holds the first request for 2 s, so the first flush is surely running.
        let server = try LoopbackHTTPServer(lifetime: 120)
        defer { server.stop() }
        server.enqueue(.stall(seconds: 2), .ok)
        let arguments = ["flush", "--store", storePath, "--endpoint", server.baseURL.absoluteString,
                         "--format", "segment", "--write-key", "test-key", "--timeout", "60"]
        let first = try DemoProcess(arguments)
        let deadline = Date().addingTimeInterval(30)
        while server.requestCount == 0, Date() < deadline { try await Task.sleep(nanoseconds: 5_000_000) }
        let second = try DemoProcess(arguments)
        #expect(await second.wait(timeout: 30) == 1, "\(second.standardError)")
        #expect(second.standardError.contains("store in use by process \(first.pid)"), "\(second.standardError)")
        #expect(await first.wait(timeout: 90) == 0, "\(first.standardError.suffix(400))")

        var seen: [String: Int] = [:]
        for request in server.requests where request.path == "/v1/batch" && request.action == .ok {
            let body = try #require(try JSONSerialization.jsonObject(with: request.body) as? [String: Any])
            for message in body["batch"] as? [[String: Any]] ?? [] { seen[message["messageId"] as? String ?? "", default: 0] += 1 }
        }
        #expect(seen.count == 5_000, "\(seen.count) distinct ids acknowledged")
        #expect(seen.values.allSatisfy { $0 == 1 }, "\(seen.values.filter { $0 > 1 }.count) ids acknowledged twice")
        let store = try EventStore(path: storePath, readOnly: true)
        #expect(store.counts().pending == 0 && store.counts().inFlight == 0, "\(store.counts())")
        store.close()
    }
}
