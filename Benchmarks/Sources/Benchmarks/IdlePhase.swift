import Analytics
import Dispatcher
import Foundation
import Onboarding
import Workload

/// What the runtime costs while it has nothing to do: 10 events sent and delivered, then a
/// window with nothing pending and nobody calling.
///
/// It runs in a fresh child process of the demo (`demo bench --idle-probe URL`), so that the
/// bench's own collector, sampler and earlier phases do not count: the child starts
/// ``Analytics`` with the command line's default configuration and a Segment destination at the
/// parent's loopback collector, sends the events through `analytics.reporter(for:)`, asks for
/// their delivery until all are delivered, then measures the window at once and prints one
/// `key value` line per figure. The child runs it on its main actor before any Swift task of
/// its own (see ``run(collector:directory:window:awaiting:)``).
///
/// - `idle_wakeups_per_s`: the process's context switches in the window (`getrusage`,
///   `ru_nvcsw + ru_nivcsw`, every thread on Linux), per second. Split by thread (see
///   ``ThreadSwitches``) into `_platform_timer` (libdispatch's event thread, where its
///   once-a-second pool monitor would run: 0 while nothing started it), `_retiring`
///   (libdispatch ending the worker threads left idle 5 s after the delivery: once, not
///   periodic) and `_steady` (every thread that stays: what recurs while idle).
/// - `idle_wakeups_per_s_floor`: a reference, from a second child that ran one task on Swift's
///   global executor and nothing else (see ``IdleFloor``): what a Linux app pays once its own
///   code uses Swift's global executor, library or not.
/// - `idle_cpu_ms_per_min`: user and system CPU time in the window, scaled to a minute.
/// - `threads_idle`: the threads the library keeps while idle: the process's threads
///   (`/proc/self/task`) at the end of the window minus those before `Analytics` was created
///   (the child's main thread, started by then, is not counted).
///
/// Linux only: on Apple platforms `getrusage` does not count context switches and the thread
/// count needs `task_threads`, so the bench leaves these figures out there.
public enum IdlePhase {
    /// Events sent and delivered before the window.
    static let events = 10
    /// Seconds of idle the bench measures.
    public static let window: TimeInterval = 10
    /// Segment's analytics-swift 1.9.4 on this machine, quoted from issue 23 (30 s of idle after
    /// 10 delivered events): 34 wake-ups, 2.9 ms of CPU, 9 threads.
    static let peerWakeupsPerSecond = 1.1
    static let peerCPUMillisecondsPerMinute = 5.8
    static let peerThreads = 9
    /// The keys, in the order printed.
    public static let keys = [
        "idle_wakeups_per_s", "idle_wakeups_per_s_platform_timer", "idle_wakeups_per_s_retiring", "idle_wakeups_per_s_steady",
        "idle_cpu_ms_per_min", "threads_idle",
    ]

    /// Runs the probe in this process against the collector at `collector`, on a store in
    /// `directory`, measuring `window` seconds of idle.
    ///
    /// It runs as an app whose own code starts no Swift task, on the caller's actor (the demo's
    /// main actor, before its first task), so that what wakes in the window is the library's,
    /// not the pool monitor a task on Swift's global executor starts on Linux (what
    /// ``IdleFloor`` measures). By default it waits as most apps do, not at all: it sends, asks
    /// for delivery (`requestDelivery()`, Segment's `flush()`), and polls the counters. With
    /// `awaiting`, it awaits `ready()` and `drain(timeout:)` instead, which run where the
    /// library's tasks run (`LibraryTask`). The window is a sleep of the calling thread.
    /// - Returns: the figures by key (see ``keys``).
    /// - Throws: ``BenchError`` when the store did not open or an event was not delivered.
    @MainActor
    public static func run(collector: URL, directory: URL, window: TimeInterval = window,
                                                   awaiting: Bool = false) async throws -> [String: Double] {
        let threadsBefore = threadCount()
        var configuration = AnalyticsConfiguration.commandLine(storePath: directory.appendingPathComponent("idle.sqlite").path)
        configuration.destination = .segment(endpoint: collector, writeKey: "bench-write-key")
        let analytics = try Analytics(configuration: configuration)
        // The store opens in the background: the events are sent once it is open.
        let storage = awaiting ? await analytics.ready() : waitForStorage(analytics)
        guard storage == .available else { throw BenchError("the idle store did not open: \(storage)") }
        let app = LoadGenerator(reporter: analytics.reporter(for: OnboardingAnalytics.self))
        for index in 0..<events { app.send(index) }
        var lastError: String?
        if awaiting { lastError = await analytics.drain(timeout: 60).report.lastError } else { requestDelivery(analytics) }
        let counters = analytics.counters
        guard counters.delivered == events, counters.store.pending == 0 else {
            throw BenchError("idle probe: \(counters.delivered) of \(events) delivered in 60 s, \(counters.store.pending) pending: \(lastError ?? "no error reported")")
        }
        let measured = IdleWindow.measure(seconds: window)
        let threads = threadCount() - threadsBefore
        await analytics.close()
        let total = measured.switches, split = measured.split
        return [
            "idle_wakeups_per_s": Double(total) / window,
            "idle_wakeups_per_s_platform_timer": Double(split.platformTimer) / window,
            "idle_wakeups_per_s_retiring": Double(split.retiring) / window,
            "idle_wakeups_per_s_steady": Double(split.others) / window,
            "idle_cpu_ms_per_min": measured.cpuSeconds * 1000 * 60 / window,
            "threads_idle": Double(threads),
        ]
    }

    /// Polls until the store opened at start is no longer opening (at most 30 s).
    static func waitForStorage(_ analytics: Analytics) -> StorageState {
        _ = poll(seconds: 30) { analytics.dispatcher.storage != .opening }
        return analytics.dispatcher.storage
    }

    /// Asks for delivery once the events are stored, and polls until they are delivered (again
    /// after a failed round), for at most 60 s.
    static func requestDelivery(_ analytics: Analytics) {
        let deadline = Date(timeIntervalSinceNow: 60)
        while Date() < deadline {
            let counters = analytics.counters
            if counters.delivered == events, counters.store.pending == 0 { return }
            guard poll(seconds: 10, until: { analytics.counters.store.pending + analytics.counters.delivered >= events }) else { return }
            analytics.requestDelivery()
            _ = poll(seconds: 1) { analytics.counters.delivered == events && analytics.counters.store.pending == 0 }
        }
    }

    /// Checks `condition` every 20 ms until it holds or `seconds` pass.
    /// - Returns: whether it held.
    static func poll(seconds: TimeInterval, until condition: () -> Bool) -> Bool {
        let deadline = Date(timeIntervalSinceNow: seconds)
        while !condition() {
            guard Date() < deadline else { return false }
            usleep(20_000)
        }
        return true
    }

    /// The lines the child prints: `key value`, one per figure.
    public static func lines(_ figures: [String: Double]) -> String {
        keys.map { "\($0) \(figures[$0] ?? .nan)" }.joined(separator: "\n")
    }

    /// Runs `executable bench --idle-probe URL --idle-window S` as a child process and returns what it printed.
    /// - Parameter executable: the demo; this executable when nil.
    public static func measureInChild(collector: URL, window: TimeInterval = window, executable: URL? = nil) throws -> [String: Double] {
        try ChildProcess.measure(arguments: ["bench", "--idle-probe", collector.absoluteString, "--idle-window", String(window)],
                                 keys: keys, executable: executable)
    }

    /// Adds the figures of one child probe against `collector` to `result` (Linux only).
    static func add(to result: inout BenchResult, collector: URL) throws {
        #if os(Linux)
        var figures = try measureInChild(collector: collector)
        figures[IdleFloor.key] = try IdleFloor.measureInChild()
        func rounded(_ key: String) -> Double { ((figures[key] ?? .nan) * 100).rounded() / 100 }
        result.add("idle_wakeups_per_s", rounded("idle_wakeups_per_s"), unit: "/s", target: "≤ 0.2 (Segment \(peerWakeupsPerSecond))")
        result.add(IdleFloor.key, rounded(IdleFloor.key), unit: "/s", target: "(reference: one task on Swift's global executor)")
        result.add("idle_wakeups_per_s_platform_timer", rounded("idle_wakeups_per_s_platform_timer"), unit: "/s",
                   target: "(libdispatch's pool monitor, Linux)")
        result.add("idle_wakeups_per_s_retiring", rounded("idle_wakeups_per_s_retiring"), unit: "/s", target: "(idle workers ending, once)")
        result.add("idle_wakeups_per_s_steady", rounded("idle_wakeups_per_s_steady"), unit: "/s", target: "≤ 0.2 (threads that stay)")
        result.add("idle_cpu_ms_per_min", rounded("idle_cpu_ms_per_min"), unit: "ms", target: "(Segment \(peerCPUMillisecondsPerMinute))")
        result.add("threads_idle", figures["threads_idle"] ?? .nan, unit: "threads", target: "≤ 3 (Segment \(peerThreads))")
        #endif
    }

    /// The process's threads now (`/proc/self/task`; 0 off Linux).
    static func threadCount() -> Int {
        #if os(Linux)
        return (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/task").count) ?? 0
        #else
        return 0
        #endif
    }
}
