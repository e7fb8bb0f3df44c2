@testable import Dispatcher
import Foundation
import TestSupport
import Testing
import Tracking

/// An explicit flush tries at once after a network error, but never before a collector's
/// `Retry-After`.
@Suite("Dispatcher: an explicit flush skips the backoff, not Retry-After", .serialized, .runsAlone)
struct ExplicitFlushTests {
    /// A Dispatcher on the store at `path`, delivering to `url` in the Segment format.
    private func dispatcher(_ path: String, _ url: URL, policy: RetryPolicy) throws -> Dispatcher {
        let destination = try SegmentDestination(endpoint: url, writeKey: "flush-key", transport: URLSessionTransport(requestTimeout: 5))
        return try Dispatcher(configuration: DispatcherConfiguration(
            storePath: path, destination: destination, batch: BatchConfiguration(deliverySize: 50, flushInterval: 0),
            strategy: [], retryPolicy: policy))
    }

    @Test("After a flush to an unreachable endpoint stored a 30 s backoff, a flush to a working collector delivers at once")
    func flushAfterNetworkErrorDeliversAtOnce() async throws {
        let directory = try TemporaryDirectory(prefix: "flush-after-network-error")
        defer { directory.remove() }
        let path = directory.file("store.sqlite").path
        // A port nobody listens on any more: connections are refused.
        let gone = try LoopbackHTTPServer()
        let unreachable = gone.baseURL
        gone.stop()
        let policy = RetryPolicy(baseDelay: 30, jitter: .none)

        let first = try dispatcher(path, unreachable, policy: policy)
        let reporter = EventReporter<Checkout>(plugins: [first])
        for index in 0..<20 { reporter.send(name: .pay, action: .tap, userData: ["index": .int(index)]) }
        let failed = await first.drain(timeout: 10).report
        await first.close()
        #expect(failed.retried == 20 && failed.stopReason == .backingOff, "\(failed)")
        let due = try #require(failed.earliestNextAttempt)
        #expect(due.timeIntervalSinceNow > 20, "the network error stored a 30 s backoff")

        let server = try LoopbackHTTPServer()
        defer { server.stop() }
        let second = try dispatcher(path, server.baseURL, policy: policy)
        let started = Date()
        let report = await second.drain(timeout: 10).report
        let took = Date().timeIntervalSince(started)
        #expect(report.delivered == 20, "\(report)")
        #expect(took < 5, "the flush took \(took) s")
        #expect(server.requestCount == 1 && segmentMessageIDs(server).count == 20)
        #expect(second.counters.store.pending == 0)
        await second.close()
    }

    @Test("A 429 with Retry-After: 2 defers the next explicit drain by 2 s, then it delivers; a longer one returns at once, across runs too")
    func retryAfterDefersAnExplicitDrain() async throws {
        let directory = try TemporaryDirectory(prefix: "flush-retry-after")
        defer { directory.remove() }
        let path = directory.file("store.sqlite").path
        let server = try LoopbackHTTPServer()
        defer { server.stop() }
        server.enqueue(.respond(status: 429, headers: ["Retry-After": "2"]))
        let policy = RetryPolicy(baseDelay: 0.05, maxDelay: 0.2)
        let dispatcher = try dispatcher(path, server.baseURL, policy: policy)
        let reporter = EventReporter<Checkout>(plugins: [dispatcher])
        for index in 0..<10 { reporter.send(name: .pay, action: .tap, userData: ["index": .int(index)]) }

        let refused = await dispatcher.drain(timeout: 10).report
        let answered = Date()
        #expect(refused.retried == 10 && refused.stopReason == .backingOff, "\(refused)")
        let report = await dispatcher.drain(timeout: 10).report
        let waited = Date().timeIntervalSince(answered)
        #expect(report.delivered == 10, "\(report)")
        #expect(waited >= 1.9 && waited < 5, "the second flush returned \(waited) s after the 429")
        #expect(server.requestCount == 2)
        for steps in dispatcher.timeline.all().values {
            let attempts = steps.filter { $0.kind == .attempt }.map(\.at)
            #expect(attempts.count == 2 && attempts[1].timeIntervalSince(attempts[0]) >= 1.95, "attempts at \(attempts)")
        }

        // A Retry-After beyond the flush's timeout: the flush returns at once, saying when.
        reporter.send(name: .view, action: .open)
        server.enqueue(.respond(status: 429, headers: ["Retry-After": "60"]))
        let long = await dispatcher.drain(timeout: 10).report
        #expect(long.retried == 1)
        let started = Date()
        let deferred = await dispatcher.drain(timeout: 5).report
        #expect(Date().timeIntervalSince(started) < 2)
        #expect(deferred.stopReason == .backingOff && deferred.delivered == 0, "\(deferred)")
        #expect((deferred.earliestNextAttempt ?? .distantPast).timeIntervalSinceNow > 50)
        await dispatcher.close()
        // The store remembers it for the next run.
        let next = try self.dispatcher(path, server.baseURL, policy: policy)
        let again = await next.drain(timeout: 5).report
        #expect(again.stopReason == .backingOff && again.delivered == 0, "\(again)")
        #expect(server.requestCount == 3, "nothing was sent before the Retry-After passed")
        await next.close()
    }
}
