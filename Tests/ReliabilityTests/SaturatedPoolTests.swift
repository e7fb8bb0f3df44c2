@testable import Dispatcher
import Foundation
import Testing
import TestSupport
import Tracking

/// `drain(timeout:)` must keep its deadline even when the host has
/// blocked every thread of Swift's cooperative pool.
@Suite("Reliability: deadlines hold with the cooperative pool saturated", .serialized, .runsAlone)
struct SaturatedPoolTests {
    /// How the test proves that the library needs no pool thread to keep a deadline:
    ///
    /// - `4 × activeProcessorCount` detached tasks each block a pool thread on a semaphore (the
    ///   pool has about one thread per core), and the test waits until at least
    ///   `activeProcessorCount` of them are blocking (up to 60 s) before it starts the clock.
    /// - The collector stalls, so neither call can finish by delivering: each can only return
    ///   through its timeout.
    /// - The test's own code runs under `withTaskExecutorPreference` on a ``ThreadTaskExecutor``,
    ///   a thread of its own: when the library resumes the caller, the caller runs at once,
    ///   without a pool thread. The durations are measured there, before the blockers are
    ///   released.
    ///
    /// So whatever the library needs to time out (a `Task.sleep`, a task that must start on the
    /// pool) shows up as a call that returns only after the blockers give up (10 s each, in waves): the
    /// timeouts must be library-owned timers resuming the caller, and the persistence the calls
    /// wait for must run on threads of the library's own. The delivery round itself is ordinary
    /// async code (the platform floor has no task executors): it needs the pool, and the test
    /// checks that delivery goes on once the pool is free.
    @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *) // ThreadTaskExecutor
    @Test("With every pool thread blocked, drain(timeout: 2) to a stalled collector, twice, returns within 3 s and delivery goes on once the pool is free")
    func deadlinesHoldWithThePoolSaturated() async throws {
        let directory = try TemporaryDirectory(prefix: "reliability-saturated")
        defer { directory.remove() }
        let server = try LoopbackHTTPServer(defaultAction: .stall(seconds: 10), lifetime: 60)
        defer { server.stop() }
        let destination = try SegmentDestination(endpoint: server.baseURL, writeKey: "saturated-key",
                                                 transport: URLSessionTransport(requestTimeout: 8))
        let dispatcher = try Dispatcher(configuration: DispatcherConfiguration(
            storePath: directory.file("store.sqlite").path, destination: destination,
            batch: BatchConfiguration(deliverySize: 50, flushInterval: 0), strategy: []))
        let reporter = EventReporter<Probe>(plugins: [dispatcher])
        for index in 0..<20 { reporter.send(name: .tap, action: .open, userData: ["index": .int(index)]) }

        let cores = ProcessInfo.processInfo.activeProcessorCount
        let executor = ThreadTaskExecutor(name: "SaturatedPoolTests.caller")
        let measured = await withTaskExecutorPreference(executor) {
            let blockers = PoolBlockers(count: 4 * cores, limit: 10)
            // Up to 60 s: at the start of a test run, the suite's other tests fill the pool's
            // queue, and the blockers' tasks start behind them.
            let blocking = blockers.waitUntilBlocking(cores, timeout: 60)
            let flushStart = Date()
            let flushed = await dispatcher.drain(timeout: 2).report
            let flushTook = Date().timeIntervalSince(flushStart)
            let drainStart = Date()
            let drained = await dispatcher.drain(timeout: 2)
            let drainTook = Date().timeIntervalSince(drainStart)
            blockers.release()
            return (blocking, flushTook, flushed, drainTook, drained)
        }
        executor.shutdown()
        let (blocking, flushTook, flushed, drainTook, drained) = measured

        #expect(blocking >= cores, "only \(blocking) of \(4 * cores) blockers got a pool thread")
        #expect(flushTook < 3, "the first drain(timeout: 2) took \(flushTook) s")
        #expect(flushed.delivered == 0 && flushed.stopReason == .deadline, "\(flushed)")
        #expect(drainTook < 3, "drain(timeout: 2) took \(drainTook) s")
        #expect(drained.timedOut && drained.persisted, "\(drained)")
        // The rounds the timed-out calls started stop at their deadline; with the pool free
        // again, delivery goes on: the next flush sends.
        _ = await dispatcher.drain(timeout: 1).report
        #expect(server.requestCount >= 1, "no request went out once the pool was free")
        server.stop()
        await dispatcher.close(timeout: 2)
    }
}
