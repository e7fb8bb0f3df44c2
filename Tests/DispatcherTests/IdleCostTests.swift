@testable import Dispatcher
import Foundation
import Testing
import TestSupport
import Tracking

/// Idle costs nothing: with nothing pending and nobody calling, the Dispatcher's threads sleep
/// until an event is sent, a timer the user configured is due, or a lifecycle moment arrives.
@Suite("Idle costs nothing", .runsAlone)
struct IdleCostTests {
    @Test("after a delivered batch: no flush timer, no round, no wake-up of the ingest writer for 2.5 s")
    func nothingWakesWhileIdle() async throws {
        let directory = try TemporaryDirectory(prefix: "idle-cost")
        defer { directory.remove() }
        let server = try LoopbackHTTPServer()
        defer { server.stop() }
        let dispatcher = try makeDispatcher(directory, server: server, batch: BatchConfiguration(deliverySize: 50, flushInterval: 0.2))
        let reporter = EventReporter<Checkout>(plugins: [dispatcher])
        for index in 0..<10 { reporter.send(name: .pay, action: .tap, userData: ["index": .int(index)]) }
        let backend = try #require(dispatcher.backend)
        let scheduler = try #require(backend.scheduler)
        #expect(await eventually(timeout: 10) { dispatcher.counters.delivered == 10 }, "the flush timer delivers the 10 events")
        #expect(await eventually(timeout: 10) { !scheduler.isIntervalTimerArmed }, "nothing pending: the timer is disarmed")

        let wakeUps = backend.ingest.state.withLock { $0.idleWakeUps }
        let requests = server.requestCount
        try await Task.sleep(nanoseconds: 2_500_000_000)
        #expect(backend.ingest.state.withLock { $0.idleWakeUps } == wakeUps, "the ingest writer slept through 2.5 s")
        #expect(server.requestCount == requests)
        #expect(!scheduler.isIntervalTimerArmed)

        reporter.send(name: .pay, action: .tap, userData: ["index": .int(10)])
        #expect(await eventually(timeout: 10) { dispatcher.counters.delivered == 11 }, "a send wakes the writer, which arms the timer again")
        await dispatcher.close()
    }

    /// The child's figures over a 6 s window (libdispatch retires the workers of the delivery 5 s
    /// in), whether the probe polls or awaits `ready()` and `drain()` on its main actor:
    /// libdispatch's event thread woke at most twice (its pool monitor, once started, wakes it
    /// every second: the library's tasks and its async API ran on its own serial queues); the
    /// threads that stay woke less than once a second, where the ingest writer alone woke once
    /// a second before; the process as a whole, less than twice in a second.
    @Test("demo bench --idle-probe: 6 s idle after 10 delivered events: no pool monitor, the threads that stay barely wake, at most 3 kept",
          arguments: [false, true])
    func idleProbeInChild(awaiting: Bool) async throws {
        let server = try LoopbackHTTPServer(recordBodies: false)
        defer { server.stop() }
        let probe = try DemoProcess(["bench", "--idle-probe", server.baseURL.absoluteString, "--idle-window", "6"] + (awaiting ? ["--idle-await"] : []))
        #expect(await probe.wait(timeout: 60) == 0, "the probe failed: \(probe.standardError)")
        var figures: [String: Double] = [:]
        for line in probe.outputLines {
            let parts = line.split(separator: " ")
            if parts.count == 2, let value = Double(parts[1]) { figures[String(parts[0])] = value }
        }
        let total = try #require(figures["idle_wakeups_per_s"], "\(probe.outputLines)")
        let monitor = try #require(figures["idle_wakeups_per_s_platform_timer"], "\(probe.outputLines)")
        let steady = try #require(figures["idle_wakeups_per_s_steady"], "\(probe.outputLines)")
        let threads = try #require(figures["threads_idle"], "\(probe.outputLines)")
        #expect(figures["idle_cpu_ms_per_min"] != nil)
        #expect(steady < 1, "the threads that stay woke \(steady) times a second: \(figures)")
        #expect(monitor * 6 < 3, "libdispatch's event thread woke \(monitor) times a second: its pool monitor runs, so a task of the library ran on Swift's global executor: \(figures)")
        #expect(total < 2, "\(figures)")
        #expect(threads <= 3, "\(threads) threads kept while idle")
        #expect(server.requestCount >= 1, "the probe delivered to the collector")
    }

    /// The reference the bench subtracts: a process that ran one Swift task and nothing else.
    /// On Linux, libdispatch's pool monitor wakes it once a second, with no library in it. (Only
    /// the lower bound is held: a loaded machine adds preemptions, never removes the monitor.)
    @Test("demo bench --idle-floor-probe: one Swift task, then 3 s idle: libdispatch's monitor wakes it at least about once a second")
    func idleFloorInChild() async throws {
        let probe = try DemoProcess(["bench", "--idle-floor-probe", "--idle-window", "3"])
        #expect(await probe.wait(timeout: 60) == 0, "the floor probe failed: \(probe.standardError)")
        let line = try #require(probe.outputLines.first { $0.hasPrefix("idle_wakeups_per_s_floor ") }, "\(probe.outputLines)")
        let floor = try #require(Double(line.split(separator: " ")[1]))
        #if os(Linux)
        #expect(floor >= 0.6, "one task and nothing else woke \(floor) times a second")
        #endif
    }

    @Test("demo bench --idle-probe takes only a loopback collector")
    func idleProbeRefusesOtherHosts() async throws {
        for url in ["http://10.0.0.1:80", "https://127.0.0.1:8080", "not a url"] {
            let probe = try DemoProcess(["bench", "--idle-probe", url])
            #expect(await probe.wait(timeout: 30) == 2, "\(url): \(probe.standardError)")
            #expect(probe.standardError.contains("loopback"), "\(url): \(probe.standardError)")
        }
    }
}
