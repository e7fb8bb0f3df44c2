@testable import Dispatcher
import Foundation
import TestSupport
import Testing
import Tracking

/// A real child process (`demo generate`) killed with SIGKILL: every id whose `send` returned
/// (it was printed after `send` returned) must be in the store afterwards.
@Suite("Crash safety (SIGKILL)", .serialized, .runsAlone)
struct CrashTests {
    @Test("10 SIGKILLs at random moments on one store lose no event whose send returned")
    func killedGeneratorsLoseNothing() async throws {
        let directory = try TemporaryDirectory(prefix: "crash")
        defer { directory.remove() }
        let storePath = directory.file("store.sqlite").path
        var printed: [String] = []
        var generator = SystemRandomNumberGenerator()
        var kills = 0
        for _ in 0..<10 {
            let child = try DemoProcess(["generate", "--count", "10000000", "--store", storePath, "--print-ids"])
            // Kill at a random moment: after a random number of printed ids (so the child is
            // mid-stream), or after a random delay.
            let target = Int.random(in: 1...30_000, using: &generator)
            _ = await child.waitForLines(target, timeout: 15)
            try await Task.sleep(nanoseconds: UInt64.random(in: 0...20_000_000, using: &generator))
            child.kill()
            kills += 1
            let ids = child.outputLines.filter { !$0.isEmpty }
            #expect(!ids.isEmpty, "the child printed no id before it was killed: \(child.standardError)")
            printed.append(contentsOf: ids)
        }
        #expect(kills == 10)

        // Reopen the store the way the app would: the journal a killed run left is replayed.
        let dispatcher = try Dispatcher(configuration: DispatcherConfiguration(
            storePath: storePath, batch: BatchConfiguration(maxQueueSize: 50_000_000, maxQueueBytes: 1 << 40)))
        let drained = await dispatcher.drain(timeout: 60)
        #expect(drained.persisted)
        var stored = Set<String>()
        var offset = 0
        while true {
            let page = try #require(dispatcher.store).query(StoreQuery(limit: 50_000, offset: offset))
            if page.isEmpty { break }
            stored.formUnion(page.map { $0.event.id.uuidString.lowercased() })
            offset += page.count
        }
        await dispatcher.close()
        let missing = printed.filter { !stored.contains($0) }
        let missingCount = missing.count
        #expect(missingCount == 0, "\(missingCount) of \(printed.count) printed ids are missing, e.g. \(Array(missing.prefix(3)))")
        let distinct = Set(printed).count
        #expect(distinct == printed.count, "ids must be unique")
        print("crash test: \(kills) SIGKILLs, \(printed.count) ids printed, \(missing.count) lost, store holds \(stored.count)")
    }

    @Test("A flush killed mid-delivery re-sends at most the batch in flight; everything arrives")
    func killedFlushDeliversEverythingOnce() async throws {
        let directory = try TemporaryDirectory(prefix: "crash-flush")
        defer { directory.remove() }
        let storePath = directory.file("store.sqlite").path
        let generate = try DemoProcess(["generate", "--count", "20000", "--store", storePath])
        #expect(await generate.wait(timeout: 60) == 0, "generate failed: \(generate.standardError)")

        let server = try LoopbackHTTPServer(lifetime: 120)
        defer { server.stop() }
        let arguments = ["flush", "--store", storePath, "--endpoint", server.baseURL.absoluteString,
                         "--format", "segment", "--write-key", "test-key", "--timeout", "60"]
        var kills = 0
        for _ in 0..<3 {
            let flush = try DemoProcess(arguments)
            let deadline = Date().addingTimeInterval(20)
            let before = server.requestCount
            while server.requestCount < before + 3, Date() < deadline { try await Task.sleep(nanoseconds: 500_000) }
            flush.kill()
            kills += 1
        }
        let last = try DemoProcess(arguments)
        #expect(await last.wait(timeout: 90) == 0, "final flush failed: \(last.standardError)")

        var seen: [String: Int] = [:]
        for request in server.requests where request.path == "/v1/batch" {
            let body = try #require(try JSONSerialization.jsonObject(with: request.body) as? [String: Any])
            for message in body["batch"] as? [[String: Any]] ?? [] {
                seen[message["messageId"] as? String ?? "", default: 0] += 1
            }
        }
        let distinct = seen.count
        #expect(distinct == 20_000, "every event arrives: got \(distinct) distinct ids")
        let resent = seen.values.filter { $0 > 1 }.count
        // Only a batch whose acknowledgement was lost to the kill may come again (500 per batch).
        #expect(resent <= kills * 500, "\(resent) ids were delivered twice after \(kills) kills")
        let reopened = try EventStore(path: storePath, limits: .unlimited)
        #expect(reopened.counts().pending == 0)
        reopened.close()
    }
}
