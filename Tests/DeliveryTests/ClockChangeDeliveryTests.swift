@testable import Dispatcher
import Foundation
import Testing
import TestSupport

/// A retry scheduled while the clock was a day ahead must not wait a day once the clock is
/// corrected: every wait is capped at the retry policy's longest wait (``RetryPolicy/maxWait``).
@Suite("Clock changes never stretch a retry wait", .serialized, .runsAlone)
struct ClockChangeDeliveryTests {
    /// 0.1 s doubling to 0.5 s, `Retry-After` up to 1 s: no wait longer than 1 s.
    let policy = RetryPolicy(baseDelay: 0.1, maxDelay: 0.5, jitter: .none, maxRetryAfter: 1)

    /// Stores `count` events whose retry a worker with its clock a day ahead scheduled, after a
    /// 503 from `server`; returns their ids.
    func scheduleRetriesWithClockADayAhead(_ store: EventStore, server: LoopbackHTTPServer, count: Int) async throws -> Set<UUID> {
        let events = DeliveryFixtures.encodedEvents(count)
        try store.insert(events)
        server.enqueue(.respond(status: 503))
        let ahead = DeliveryWorker(
            queue: store, destination: try SegmentDestination(endpoint: server.baseURL, writeKey: "clock-key",
                                                              transport: URLSessionTransport(requestTimeout: 5)),
            configuration: DeliveryWorkerConfiguration(retryPolicy: policy, clock: { Date().addingTimeInterval(86_400) }))
        let report = await ahead.deliverAvailable(deadline: Date().addingTimeInterval(86_400 + 10))
        #expect(report.stopReason == .backingOff && report.retried == count)
        let rows = try store.query(StoreQuery(status: .pending))
        #expect(rows.count == count && rows.allSatisfy { ($0.nextAttemptAt ?? .distantPast) > Date().addingTimeInterval(86_000) },
                "the retries are stored a day ahead")
        return Set(events.map(\.id))
    }

    @Test("A retry stored a day ahead is due within maxWait of the corrected clock, and delivered")
    func workerDeliversWithinMaxWait() async throws {
        let directory = try TemporaryDirectory(prefix: "clock-worker")
        defer { directory.remove() }
        let server = try LoopbackHTTPServer(lifetime: 30)
        defer { server.stop() }
        let store = try EventStore(path: directory.file("store.sqlite").path)
        defer { store.close() }
        let ids = try await scheduleRetriesWithClockADayAhead(store, server: server, count: 8)

        // The clock is corrected: a worker on the real clock.
        let worker = DeliveryWorker(
            queue: store, destination: try SegmentDestination(endpoint: server.baseURL, writeKey: "clock-key",
                                                              transport: URLSessionTransport(requestTimeout: 5)),
            configuration: DeliveryWorkerConfiguration(retryPolicy: policy))
        let corrected = Date()
        let first = await worker.deliverAvailable(deadline: corrected.addingTimeInterval(10))
        #expect(first.stopReason == .drained && first.delivered == 0)
        let due = try #require(first.earliestNextAttempt, "the drained round says when the waiting retries are due")
        #expect(due <= Date().addingTimeInterval(policy.maxWait), "due \(due.timeIntervalSince(corrected)) s after the correction")
        #expect(try store.query(StoreQuery(status: .pending)).allSatisfy { ($0.nextAttemptAt ?? .distantFuture) <= due })

        try await Task.sleep(nanoseconds: UInt64(max(0, due.timeIntervalSinceNow) * 1_000_000_000) + 50_000_000)
        let second = await worker.deliverAvailable(deadline: Date().addingTimeInterval(10))
        #expect(second.delivered == ids.count && store.counts().pending == 0)
        #expect(Date().timeIntervalSince(corrected) < policy.maxWait + 3)

        // A server's Retry-After of a day is cut to maxRetryAfter.
        try store.insert(DeliveryFixtures.encodedEvents(2))
        server.enqueue(.respond(status: 429, headers: ["Retry-After": "86400"]))
        let limited = await worker.deliverAvailable(deadline: Date().addingTimeInterval(10))
        #expect(limited.stopReason == .backingOff)
        #expect((limited.earliestNextAttempt ?? .distantFuture) <= Date().addingTimeInterval(policy.maxRetryAfter))
    }

    @Test("A Dispatcher started after the clock was corrected delivers a retry stored a day ahead within maxWait, by itself")
    func dispatcherDeliversWithinMaxWait() async throws {
        let directory = try TemporaryDirectory(prefix: "clock-dispatcher")
        defer { directory.remove() }
        let server = try LoopbackHTTPServer(lifetime: 30)
        defer { server.stop() }
        let path = directory.file("store.sqlite").path
        let store = try EventStore(path: path)
        let ids = try await scheduleRetriesWithClockADayAhead(store, server: server, count: 6)
        store.close()

        let started = Date()
        let dispatcher = try Dispatcher(configuration: DispatcherConfiguration(
            storePath: path,
            destination: try SegmentDestination(endpoint: server.baseURL, writeKey: "clock-key",
                                                transport: URLSessionTransport(requestTimeout: 5)),
            batch: BatchConfiguration(deliverySize: 50, flushInterval: 0), strategy: [.boot], retryPolicy: policy))
        // Settled, not merely claimed: a claimed batch leaves `pending` before the collector has it.
        let delivered = await waitUntil(timeout: policy.maxWait + 5) {
            dispatcher.counters.store.pending + dispatcher.counters.store.inFlight == 0
        }
        let elapsed = Date().timeIntervalSince(started)
        #expect(delivered, "still pending after \(elapsed) s: \(dispatcher.counters.store)")
        #expect(elapsed < policy.maxWait + 3)
        let acknowledged = server.requests.filter { $0.action == .ok }.flatMap { request -> [UUID] in
            let batch = (try? DeliveryFixtures.object(request.body)["batch"]) as? [[String: Any]] ?? []
            return batch.compactMap { ($0["messageId"] as? String).flatMap(UUID.init(uuidString:)) }
        }
        #expect(Set(acknowledged) == ids)
        await dispatcher.close()
    }

    private func waitUntil(timeout: TimeInterval, _ condition: () -> Bool) async -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            if condition() { return true }
            try? await Task.sleep(nanoseconds: 20_000_000)
        }
        return condition()
    }
}
