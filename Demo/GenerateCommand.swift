import Analytics
import DataQuality
import Basket
import Dispatcher
import Foundation
import Onboarding
import Tracking
import Wishlist
import Workload

/// `demo generate --store PATH [--count N] [--threads T] [--interval SECONDS] [--timeout SECONDS] [--print-ids]
/// [--progress] [--drain-on-signal [--drain-timeout SECONDS]]`: load on an ``Analytics`` runtime with
/// the default configuration, sent to its Dispatcher directly, no delivery. The last line counts sent, persisted, refused (with
/// the reasons), evicted and stranded, what a damaged journal lost, and the CPU time used; the
/// exit status is 1 when anything was refused, evicted (dropped by the queue bounds: data never
/// delivered) or stranded, the journal was damaged or cut, or events went with a store file
/// deleted or replaced while running.
///
/// The events go to the runtime's Dispatcher (`analytics.dispatcher`) through a plain
/// reporter, not through `analytics.reporter(for:)`: this is the load and crash-safety tool,
/// so every event sent must be exactly one event stored, with the id printed. The data-quality
/// stages would flag the mix's repeats as duplicates and add context to every event, which
/// changes what a run of N events stores; the journey shows those stages.
///
/// With `--drain-on-signal` the runtime's termination drain is on: SIGTERM or SIGINT drains
/// (everything sent is persisted) within the drain timeout, then the process ends by that
/// signal, without the summary line.
enum GenerateCommand {
    /// The options `generate` parses and its help lists.
    static let spec = CommandSpec(
        name: "generate",
        synopsis: "--store PATH [--count N] [--threads T] [--interval SECONDS] [--timeout SECONDS] [--print-ids] [--progress] [--drain-on-signal [--drain-timeout SECONDS]]",
        summary: """
        Sends N events across the three features from T threads to the Dispatcher of an
        Analytics runtime on PATH (default configuration) directly, past the data-quality
        stages, so each event sent is one event stored; nothing is delivered. The last line
        (standard error) counts sent, persisted, refused (with the reasons), evicted and stranded.
        Exit 0 when every event reached the store, 1 if any was refused, evicted by the queue
        bounds or stranded, or the journal an earlier run left was damaged, 2 on a usage mistake.
        With --drain-on-signal, SIGTERM or SIGINT ends the run by that signal
        once everything sent is in the store (at most the drain timeout later).
        """,
        options: [
            .value("store", "PATH", "The store (created if missing). Required."),
            .value("count", "N", "Events to send, 0 to 100000000 (default 1000)."),
            .value("threads", "T", "Threads sending, 1 to 64 (default 1)."),
            .value("interval", "SECONDS", "A pause after each send, as an app sends now and then\n(default 0: back to back)."),
            .value("timeout", "SECONDS", "How long to wait for the store at the end, more than 0 and\nat most 86400 (default 120)."),
            .flag("print-ids", "Print each event id (lowercase) on standard output as soon as its\nsend returned."),
            .flag("progress", "Report progress on standard error once a second after 2 s\n(on by default when standard error is a terminal)."),
            .flag("drain-on-signal", "On SIGTERM or SIGINT, persist everything sent (within the drain\ntimeout), then end by that signal."),
            .value("drain-timeout", "SECONDS", "The longest that drain may take, more than 0 and at most 600\n(default 5). Needs --drain-on-signal."),
        ],
        brief: "Sends events to a runtime's Dispatcher, past the stages, into a store.")

    static func run(_ arguments: [String]) async throws -> Int32 {
        let options = try CommandLineOptions(arguments, spec: spec)
        let count = try options.int("count", default: 1_000, in: 0...100_000_000)
        let threads = try options.int("threads", default: 1, in: 1...64)
        let timeout = try options.seconds("timeout", default: 120)
        let interval = try options.seconds("interval", default: 0)
        let drainTimeout = try options.seconds("drain-timeout", default: 5)
        guard drainTimeout <= 600 else {
            throw UsageError("--drain-timeout must be more than 0 and at most 600 seconds, got '\(options.value("drain-timeout") ?? "")'")
        }
        if options.value("drain-timeout") != nil, !options.has("drain-on-signal") {
            throw UsageError("--drain-timeout needs --drain-on-signal")
        }
        guard let store = options.value("store") else { throw UsageError("generate needs --store PATH") }
        let printIDs = options.has("print-ids")

        var configuration = AnalyticsConfiguration.commandLine(storePath: store)
        configuration.lifecycle.drainOnTerminationSignals = options.has("drain-on-signal")
        configuration.lifecycle.drainTimeout = drainTimeout
        let analytics = try Analytics(configuration: configuration)
        try await analytics.requireStore()
        let diagnosticsToken = analytics.diagnostics.observe { update in
            if case .issue(let issue) = update { printError("generate: \(issue.kind.rawValue): \(issue.message)") }
        }
        // What the store replayed from an earlier run is not this run's.
        let start = analytics.counters
        let load = LoadGenerator(plugins: [analytics.dispatcher])
        let started = Date()
        let progress = ProgressPrinter(enabled: ProgressPrinter.isEnabled(options)) { _, elapsed in
            let now = analytics.counters
            return "generate: progress: \(now.sent - start.sent)/\(count) sent, \(now.persisted - start.persisted) persisted, "
                + "\(now.refused - start.refused) refused, \(Int(elapsed)) s"
        }
        DispatchQueue.concurrentPerform(iterations: threads) { thread in
            for index in stride(from: thread, to: count, by: threads) {
                let receipts = load.send(index)
                if interval > 0 { Thread.sleep(forTimeInterval: interval) }
                if printIDs, let receipt = receipts.first {
                    // One write(2) per line: the id is on its way out as soon as its send returned.
                    FileHandle.standardOutput.write(Data((EventID.text(receipt.eventID) + "\n").utf8))
                }
            }
        }
        progress.setStatus("draining")
        let drained = await analytics.drain(timeout: timeout)
        progress.stop()
        let end = analytics.counters
        let elapsed = Date().timeIntervalSince(started)
        await analytics.close()
        analytics.diagnostics.removeObserver(diagnosticsToken)
        let summary = RunSummary(
            from: start, to: end,
            strandedReason: drained.timedOut ? "not in the store after \(String(format: "%g", timeout)) s" : nil)
        printError("generate: \(summary.line) in \(String(format: "%.2f", elapsed)) s with \(threads) thread\(threads == 1 ? "" : "s"), \(ProcessCPU.now())")
        return summary.isComplete ? 0 : 1
    }
}
