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
/// parent's loopback collector, sends the events through `analytics.reporter(for:)`, drains until
/// all are delivered, then measures the window and prints one `key value` line per figure.
///
/// - `idle_wakeups_per_s`: the process's context switches in the window (`getrusage`,
///   `ru_nvcsw + ru_nivcsw`, every thread on Linux), per second.
/// - `idle_cpu_ms_per_min`: user and system CPU time in the window, scaled to a minute.
/// - `threads_idle`: the threads the library keeps while idle: the process's threads
///   (`/proc/self/task`) at the end of the window minus those before `Analytics` was created.
///
/// Linux only: on Apple platforms `getrusage` does not count context switches and the thread
/// count needs `task_threads`, so the bench leaves these figures out there.
public enum IdlePhase {
    /// The figures one probe prints.
    public struct Figures: Sendable, Equatable {
        /// Context switches per second in the window.
        public var wakeupsPerSecond: Double
        /// CPU milliseconds in the window, scaled to a minute.
        public var cpuMillisecondsPerMinute: Double
        /// Threads at the end of the window minus threads before the runtime was created.
        public var threads: Double
    }

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
    public static let wakeupsKey = "idle_wakeups_per_s"
    public static let cpuKey = "idle_cpu_ms_per_min"
    public static let threadsKey = "threads_idle"

    /// Runs the probe in this process against the collector at `collector`, on a store in
    /// `directory`, measuring `window` seconds of idle.
    /// - Throws: ``BenchError`` when the store did not open or an event was not delivered.
    public static func run(collector: URL, directory: URL, window: TimeInterval = window) async throws -> Figures {
        let threadsBefore = threadCount()
        var configuration = AnalyticsConfiguration.commandLine(storePath: directory.appendingPathComponent("idle.sqlite").path)
        configuration.destination = .segment(endpoint: collector, writeKey: "bench-write-key")
        let analytics = try Analytics(configuration: configuration)
        guard analytics.dispatcher.storage == .available else { throw BenchError("the idle store did not open: \(analytics.dispatcher.storage)") }
        let app = LoadGenerator(reporter: analytics.reporter(for: OnboardingAnalytics.self))
        for index in 0..<events { app.send(index) }
        let drained = await analytics.drain(timeout: 60)
        guard analytics.counters.delivered == events, analytics.counters.store.pending == 0 else {
            throw BenchError("idle probe: \(analytics.counters.delivered) of \(events) delivered: \(drained.report.lastError ?? "no error")")
        }
        let before = Usage.now()
        // A blocked wait: the probe's own thread sleeps through the window.
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            DispatchQueue.global().asyncAfter(deadline: .now() + window) { continuation.resume() }
        }
        let after = Usage.now()
        let threads = threadCount() - threadsBefore
        await analytics.close()
        // The probe's own wait costs a wake-up or two: counted, not subtracted.
        return Figures(
            wakeupsPerSecond: Double(after.switches - before.switches) / window,
            cpuMillisecondsPerMinute: (after.cpuSeconds - before.cpuSeconds) * 1000 * 60 / window,
            threads: Double(threads))
    }

    /// The lines the child prints: `key value`, one per figure.
    public static func lines(_ figures: Figures) -> String {
        "\(wakeupsKey) \(figures.wakeupsPerSecond)\n\(cpuKey) \(figures.cpuMillisecondsPerMinute)\n\(threadsKey) \(figures.threads)"
    }

    /// Runs `executable bench --idle-probe URL --idle-window S` as a child process and returns what it printed.
    /// - Parameter executable: the demo; this executable when nil.
    public static func measureInChild(collector: URL, window: TimeInterval = window, executable: URL? = nil) throws -> Figures {
        let child = Process()
        child.executableURL = executable ?? URL(fileURLWithPath: PeerWorkload.executablePath)
        child.arguments = ["bench", "--idle-probe", collector.absoluteString, "--idle-window", String(window)]
        let output = Pipe()
        child.standardOutput = output
        try child.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        child.waitUntilExit()
        guard child.terminationStatus == 0 else { throw BenchError("the idle probe exited with status \(child.terminationStatus)") }
        func value(_ key: String) throws -> Double {
            let line = text.split(separator: "\n").first { $0.hasPrefix(key + " ") }
            guard let value = line.flatMap({ Double($0.dropFirst(key.count + 1)) }) else {
                throw BenchError("the idle probe printed no \(key): \(text)")
            }
            return value
        }
        return Figures(wakeupsPerSecond: try value(wakeupsKey), cpuMillisecondsPerMinute: try value(cpuKey), threads: try value(threadsKey))
    }

    /// Adds the figures of one child probe against `collector` to `result` (Linux only).
    static func add(to result: inout BenchResult, collector: URL) throws {
        #if os(Linux)
        let figures = try measureInChild(collector: collector)
        result.add(wakeupsKey, (figures.wakeupsPerSecond * 100).rounded() / 100, unit: "/s",
                   target: "≤ 0.2 (Segment \(peerWakeupsPerSecond))")
        result.add(cpuKey, (figures.cpuMillisecondsPerMinute * 100).rounded() / 100, unit: "ms",
                   target: "(Segment \(peerCPUMillisecondsPerMinute))")
        result.add(threadsKey, figures.threads, unit: "threads", target: "≤ 3 (Segment \(peerThreads))")
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

    /// One `getrusage` reading of this process.
    struct Usage {
        var switches: Int
        var cpuSeconds: Double

        static func now() -> Usage {
            var usage = rusage()
            #if os(Linux)
            _ = getrusage(__rusage_who_t(RUSAGE_SELF.rawValue), &usage)
            #else
            _ = getrusage(RUSAGE_SELF, &usage)
            #endif
            let user = Double(usage.ru_utime.tv_sec) + Double(usage.ru_utime.tv_usec) / 1e6
            let system = Double(usage.ru_stime.tv_sec) + Double(usage.ru_stime.tv_usec) / 1e6
            return Usage(switches: usage.ru_nvcsw + usage.ru_nivcsw, cpuSeconds: user + system)
        }
    }
}
