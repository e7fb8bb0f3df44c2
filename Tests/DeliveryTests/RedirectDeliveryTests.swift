@testable import Dispatcher
import Foundation
import Testing
import TestSupport

/// A collector answering with a redirect: deliveries never follow it, so the write key never
/// reaches another host, and the events stay pending for a retry.
@Suite("Redirects are never followed", .serialized, .runsAlone)
struct RedirectDeliveryTests {
    @Test("301, 302, 303, 307, 308: the Location host gets nothing, the events stay pending, the report names that host",
          arguments: [301, 302, 303, 307, 308])
    func redirectIsRetriedNotFollowed(_ status: Int) async throws {
        let target = try LoopbackHTTPServer(lifetime: 20)
        defer { target.stop() }
        let location = "http://intruder:hunter2@127.0.0.1:\(target.port)/v1/batch?token=abc"
        let origin = try LoopbackHTTPServer(defaultAction: .respond(status: status, headers: ["Location": location]), lifetime: 20)
        defer { origin.stop() }
        let directory = try TemporaryDirectory(prefix: "redirect-\(status)")
        defer { directory.remove() }
        let store = try EventStore(path: directory.file("store.sqlite").path)
        defer { store.close() }
        let events = DeliveryFixtures.encodedEvents(5)
        try store.insert(events)
        let destination = try SegmentDestination(endpoint: origin.baseURL, writeKey: "redirect-secret",
                                                 transport: URLSessionTransport(requestTimeout: 5))
        let worker = DeliveryWorker(
            queue: store, destination: destination,
            configuration: DeliveryWorkerConfiguration(retryPolicy: RetryPolicy(baseDelay: 2, maxDelay: 2, jitter: .none)))

        let started = Date()
        let report = await worker.deliverAvailable(deadline: started.addingTimeInterval(10))

        #expect(origin.requestCount == 1)
        #expect(target.requestCount == 0, "the redirect was followed: \(target.requests.map { "\($0.method) \($0.path)" })")
        #expect(report.delivered == 0 && report.rejected == 0 && report.retried == events.count)
        #expect(report.stopReason == .backingOff)
        let reason = try #require(report.lastError)
        #expect(reason.contains("HTTP \(status)") && reason.contains("127.0.0.1:\(target.port)"), "got: \(reason)")
        #expect(!reason.contains("hunter2") && !reason.contains("intruder") && !reason.contains("token"), "got: \(reason)")

        // Still pending, one attempt counted, due again after the backoff.
        let counts = store.counts()
        #expect(counts.pending == events.count && counts.inFlight == 0 && counts.rejected == 0)
        let rows = try store.query(StoreQuery(status: .pending))
        #expect(Set(rows.map(\.event.id)) == Set(events.map(\.id)))
        #expect(rows.allSatisfy { row in
            row.attempts == 1 && row.lastError == reason
                && (row.nextAttemptAt.map { $0 > started.addingTimeInterval(1) } ?? false)
        })
        // The credentials went to the configured endpoint only.
        #expect(origin.requests.allSatisfy {
            $0.path == "/v1/batch" && $0.headers["authorization"] == "Basic " + Data("redirect-secret:".utf8).base64EncodedString()
        })
    }
}
