import Benchmarks
import Foundation

/// `demo bench [--quick] [--json]`: the figures the product is held to, with a plain-SQLite
/// reference measured in the same run so ratios survive a noisy machine.
///
/// Every store is opened by an ``Analytics`` runtime. `send_ns_*` and `ingest_*` time the
/// runtime's Dispatcher alone (a reporter with no stages), as they always have;
/// `runtime_send_ns_*` time `analytics.reporter(for:)`, the path an app runs, data-quality
/// stages included.
///
/// Run it in release: `swift run -c release demo bench`.
enum BenchCommand {
    /// The options `bench` parses and its help lists.
    static let spec = CommandSpec(
        name: "bench",
        synopsis: "[--quick] [--json] [--backlog N] [--sends N] [--progress] [--stack-only] [--peer-workload] [--startup-probe STORE] [--idle-probe URL [--idle-await] | --idle-floor-probe] [--idle-window S]",
        summary: """
        Measures send cost, ingest, delivery, memory, store size and reopen time, with a
        plain-SQLite reference from the same run. Run it in release: swift run -c release demo bench.
        Exit 0 when every phase completed, 1 when one failed, 2 on a usage mistake.
        """,
        options: [
            .flag("quick", "A short run: a 20000-event backlog and 10000 timed sends."),
            .flag("json", "Print the figures as one JSON object."),
            .value("backlog", "N", "Events in the backlog, 1000 to 50000000 (default 1000000)."),
            .value("sends", "N", "Sends timed, 1000 to 10000000 (default 200000)."),
            .flag("progress", "Report the phase on standard error once a second after 2 s\n(on by default when standard error is a terminal)."),
            .flag("stack-only", "Only the full-stack send cost and its stage breakdown\n(send_ns_p50_stack, send_ns_p99_stack, stage_ns_*)."),
            .flag("peer-workload", "Only the peer workload (100000 tracks with 4 properties\nthrough Analytics to a store), printing peak_rss_mb_peer_workload\n(this library's peak memory on the peer's workload);\nthe bench runs it in a fresh child process."),
            .value("startup-probe", "STORE", "Only the start-up probe on STORE: Analytics started and\none event sent, printing startup_ms; the bench runs it\nin fresh child processes."),
            .value("idle-probe", "URL", "Only the idle probe against the loopback collector at URL\n(10 events delivered, then S seconds idle), printing\nidle_wakeups_per_s, idle_cpu_ms_per_min and threads_idle;\nthe bench runs it in a fresh child process."),
            .flag("idle-floor-probe", "Only the idle probe's reference: one Swift task, then S\nseconds idle, printing idle_wakeups_per_s_floor."),
            .value("idle-window", "S", "Seconds of idle the probe measures (default 10)."),
            .flag("idle-await", "The idle probe awaits ready() and drain() on its main actor\ninstead of asking for delivery and polling the counters."),
        ],
        brief: "Measures send cost, ingest, delivery, memory, store size, reopen time.")

    static func run(_ arguments: [String]) async throws -> Int32 {
        let options = try CommandLineOptions(arguments, spec: spec)
        let quick = options.has("quick")
        let backlog = try options.int("backlog", default: quick ? 20_000 : 1_000_000, in: 1_000...50_000_000)
        let sends = try options.int("sends", default: quick ? 10_000 : 200_000, in: 1_000...10_000_000)
        try checkModes(options)
        if let store = options.value("startup-probe") {
            say("startup_ms \(try await StartupPhase.probe(storePath: store))")
            return 0
        }
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("tracking-bench-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        if options.has("peer-workload") {
            say("\(PeerWorkload.key) \(try await PeerWorkload.run(directory: directory))")
            return 0
        }
        let progress = ProgressPrinter(enabled: ProgressPrinter.isEnabled(options)) { status, elapsed in
            "bench: progress: \(status.isEmpty ? "starting" : status), \(Int(elapsed)) s"
        }
        defer { progress.stop() }
        let bench = Benchmark(directory: directory, backlog: backlog, sends: sends,
                              flaggedContractJSON: DemoContract.json, progress: progress.setStatus)
        let result = try await options.has("stack-only") ? bench.runStackSendCost() : bench.run()
        say(options.has("json") ? result.json : result.table)
        return 0
    }

    /// Refuses two runs asked at once, and an idle window with no idle probe.
    static func checkModes(_ options: CommandLineOptions) throws {
        let modes = ["stack-only", "peer-workload", "startup-probe", "idle-probe", "idle-floor-probe"].filter { options.has($0) || options.value($0) != nil }
        if modes.count > 1 {
            throw UsageError("--\(modes[0]) and --\(modes[1]) are different runs: give one of them")
        }
        if options.value("idle-window") != nil, options.value("idle-probe") == nil, !options.has("idle-floor-probe") {
            throw UsageError("--idle-window applies to --idle-probe or --idle-floor-probe only")
        }
        if options.has("idle-await"), options.value("idle-probe") == nil {
            throw UsageError("--idle-await applies to --idle-probe only")
        }
    }

    /// `demo bench --idle-probe URL` or `--idle-floor-probe`, on the caller's actor: `main` runs
    /// it on its main actor before starting any task, so that no Swift task of the demo's own
    /// wakes the process in the window (see `IdlePhase`). Nil when `arguments` ask for anything
    /// else (help included), which `run(_:)` handles.
    @MainActor
    static func runIdleProbe(_ arguments: [String]) async -> Int32? {
        guard arguments.first == "bench", !arguments.contains("--help"), !arguments.contains("-h"),
              let options = try? CommandLineOptions(Array(arguments.dropFirst()), spec: spec),
              options.value("idle-probe") != nil || options.has("idle-floor-probe") else { return nil }
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("tracking-bench-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        return await DemoCommand.exitStatus {
            try checkModes(options)
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            return try await runIdleProbe(options, directory: directory)
        }
    }

    /// Runs the idle probe or its floor that `options` ask for, printing its `key value` lines.
    @MainActor
    private static func runIdleProbe(_ options: CommandLineOptions, directory: URL) async throws -> Int32 {
        let window = try options.seconds("idle-window", default: IdlePhase.window)
        if let probe = options.value("idle-probe") {
            guard let url = URL(string: probe), url.scheme == "http", url.host?.hasPrefix("127.") == true else {
                throw UsageError("--idle-probe takes a loopback collector's URL (http://127.x.x.x:PORT), got '\(probe)'")
            }
            say(IdlePhase.lines(try await IdlePhase.run(collector: url, directory: directory, window: window,
                                                        awaiting: options.has("idle-await"))))
        } else {
            say("\(IdleFloor.key) \(IdleFloor.run(window: window))")
        }
        return 0
    }
}
