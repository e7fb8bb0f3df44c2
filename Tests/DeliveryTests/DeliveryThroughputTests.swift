@testable import Dispatcher
@testable import DispatcherTestKit
import Foundation
import Testing
import TestSupport
import Tracking

@Suite("Delivery throughput through a loopback collector", .runsAlone)
struct DeliveryThroughputTests {
    /// Events read, encoded in the Segment format, sent to 127.0.0.1 and acknowledged, per second.
    ///
    /// Set `DELIVERY_BENCH_EVENTS` to measure a larger run (for example with `swift test -c release`).
    @Test("Segment delivery rate (bounded: 20,000 events unless DELIVERY_BENCH_EVENTS says otherwise)")
    func segmentThroughput() async throws {
        let count = ProcessInfo.processInfo.environment["DELIVERY_BENCH_EVENTS"].flatMap { Int($0) } ?? 20_000
        let server = try LoopbackHTTPServer(recordBodies: false, lifetime: 60)
        defer { server.stop() }
        let events = DeliveryFixtures.encodedEvents(count)
        let queue = InMemoryDeliveryQueue(events: events)
        let destination = try SegmentDestination(endpoint: server.baseURL, writeKey: "bench",
                                                 transport: URLSessionTransport(requestTimeout: 10))
        let worker = DeliveryWorker(queue: queue, destination: destination,
                                    configuration: DeliveryWorkerConfiguration(deliverySize: 1000))
        let started = Date()
        let report = await worker.deliverAvailable(deadline: started.addingTimeInterval(15))
        let seconds = Date().timeIntervalSince(started)
        let rate = Double(report.delivered) / seconds
        print("delivery_events_per_s \(Int(rate)) (\(report.delivered) events, \(report.requests) requests, "
            + "\(server.receivedBodyBytes / max(1, report.delivered)) bytes/event, \(String(format: "%.3f", seconds)) s)")
        #expect(report.delivered == count)
        #expect(report.stopReason == .drained)
        #expect(server.maxConcurrentRequests == 1)
        #expect(queue.storedEvents.isEmpty)
    }
}
