@testable import Dispatcher
import Foundation
import Testing
import TestSupport
import Tracking

/// The timeline's `batched` step: once per event, when its first request starts; a retry adds
/// an attempt, not another batch.
@Suite("Timeline: batched once, then each attempt")
struct BatchedStepTests {
    @Test("503 then 200: persisted, batched, attempt 1 (HTTP 503, with its duration), attempt 2, delivered")
    func retriedEventIsBatchedOnce() async throws {
        let directory = try TemporaryDirectory(prefix: "batched-step")
        defer { directory.remove() }
        let server = try LoopbackHTTPServer()
        defer { server.stop() }
        server.enqueue(.respond(status: 503, headers: [:], body: Data()))
        let dispatcher = try makeDispatcher(directory, server: server)
        let id = try #require(dispatcher.send(TrackedEvent(category: "Checkout", name: "pay", action: "tap"))?.eventID)
        // The first drain meets the 503 and backs off; a later one delivers.
        for _ in 0..<50 where dispatcher.counters.delivered == 0 {
            _ = await dispatcher.drain(timeout: 5)
            try await Task.sleep(nanoseconds: 50_000_000)
        }
        #expect(dispatcher.counters.delivered == 1)
        let steps = dispatcher.timeline(of: id)
        #expect(steps.map(\.kind) == [.persisted, .batched, .attempt, .attempt, .delivered], "\(steps.map(\.kind))")
        #expect(steps.filter { $0.kind == .attempt }.map(\.attempt) == [1, 2])
        #expect(steps.first { $0.kind == .attempt }?.detail?.contains("503") == true)
        #expect(steps.first { $0.kind == .attempt }?.detail?.contains(" after ") == true)
        await dispatcher.close()
    }
}
