@testable import Dispatcher
import Foundation
import Testing
import TestSupport
import Tracking

/// Waiting for a collector must cost no CPU.
@Suite("Reliability: waiting costs no CPU", .serialized, .runsAlone)
struct WaitCostTests {
    /// Measures the process's CPU time (`CLOCK_PROCESS_CPUTIME_ID`) around a 3 s wait for a
    /// `Retry-After`, in the way an app or a command waits for delivery: flush until nothing is
    /// pending. The flush must wait for the collector without a busy loop (neither its own nor,
    /// by returning at once again and again, its caller's). The bound, 0.3 s for a 3 s wait,
    /// leaves room for the flushes and the request themselves; run without other tests in
    /// parallel, since the measure is the whole process's.
    @Test("Flushing until delivered through a 3 s Retry-After costs under 0.3 s of CPU")
    func waitingForRetryAfterCostsNoCPU() async throws {
        let directory = try TemporaryDirectory(prefix: "reliability-wait-cpu")
        defer { directory.remove() }
        let server = try LoopbackHTTPServer()
        defer { server.stop() }
        server.enqueue(.respond(status: 429, headers: ["Retry-After": "3"]))
        let destination = try SegmentDestination(endpoint: server.baseURL, writeKey: "cpu-key",
                                                 transport: URLSessionTransport(requestTimeout: 5))
        let dispatcher = try Dispatcher(configuration: DispatcherConfiguration(
            storePath: directory.file("store.sqlite").path, destination: destination,
            batch: BatchConfiguration(deliverySize: 50, flushInterval: 0), strategy: [],
            retryPolicy: RetryPolicy(baseDelay: 0.05, maxDelay: 0.2)))
        let reporter = EventReporter<Probe>(plugins: [dispatcher])
        for index in 0..<10 { reporter.send(name: .tap, action: .open, userData: ["index": .int(index)]) }
        let refused = await dispatcher.drain(timeout: 10).report
        #expect(refused.retried == 10, "\(refused)")

        let cpuBefore = processCPUSeconds()
        let started = Date()
        var flushes = 0
        while dispatcher.counters.store.pending > 0, Date().timeIntervalSince(started) < 10 {
            _ = await dispatcher.drain(timeout: 8).report
            flushes += 1
        }
        let cpu = processCPUSeconds() - cpuBefore
        let wall = Date().timeIntervalSince(started)

        #expect(dispatcher.counters.store.pending == 0 && dispatcher.counters.delivered == 10)
        #expect(wall >= 2.9, "delivered \(wall) s after the 429")
        #expect(cpu < 0.3, "waiting \(wall) s cost \(cpu) s of CPU over \(flushes) flushes")
        await dispatcher.close()
    }
}
