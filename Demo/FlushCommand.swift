import Analytics
import Dispatcher
import Foundation
import Tracking
import Workload

/// `demo flush --store PATH --endpoint URL --format F [--write-key K] [--timeout SECONDS]`.
///
/// Exit 0 when nothing is left pending (rejected events are kept but are not pending),
/// 1 with a message when the time ran out first, or when the collector refused the endpoint or
/// the credentials (HTTP 401, 403, 404: the events stay pending), or when `--store` is not an
/// existing, writable event store (missing, a folder, another file, read-only): that file is
/// left untouched.
enum FlushCommand {
    /// The options `flush` parses and its help lists.
    static let spec = CommandSpec(
        name: "flush",
        synopsis: "--store PATH --endpoint URL --format segment|snowplow|ndjson [--write-key K] [--timeout SECONDS] [--progress]",
        summary: """
        Delivers what is pending in the store. Waiting for a retry, it says how long.
        Exit 0 when nothing is left pending (rejected events are kept but are not pending), 1
        when the time ran out or the collector refused the endpoint or the credentials (HTTP
        401, 403, 404: the events stay pending), 2 on a usage mistake (including an endpoint
        whose scheme is not allowed).
        """,
        options: [
            .value("store", "PATH", "The store to deliver from. Required; it must exist."),
            .value("endpoint", "URL", "https:// (http:// for loopback) for segment and snowplow; a path\nor a file:// URL without a host (or localhost) for ndjson. Required."),
            .value("format", "segment|snowplow|ndjson", "The collector's format. Required."),
            .value("write-key", "K", "The Segment write key (or SEGMENT_WRITE_KEY). Never printed."),
            .value("timeout", "SECONDS", "Give up after this long, more than 0 and at most 86400\n(default 300)."),
            .flag("progress", "Report progress on standard error once a second after 2 s\n(on by default when standard error is a terminal)."),
        ],
        brief: "Delivers what is pending in a store to an endpoint.")

    static func run(_ arguments: [String]) async throws -> Int32 {
        let options = try CommandLineOptions(arguments, spec: spec)
        // Every option given is checked before anything is missing is reported.
        let format = try options.value("format").map { try options.choice("format", default: $0, from: DestinationOptions.formats) }
        let timeout = try options.seconds("timeout", default: 300)
        guard let path = options.value("store") else { throw UsageError("flush needs --store PATH") }
        guard let endpoint = options.value("endpoint") else { throw UsageError("flush needs --endpoint URL") }
        guard let format else { throw UsageError("flush needs --format segment|snowplow|ndjson") }
        var configuration = AnalyticsConfiguration.commandLine(storePath: path)
        configuration.destination = try DestinationOptions.settings(endpoint: endpoint, format: format, writeKey: options.value("write-key"))
        configuration.batch = AnalyticsConfiguration.unboundedBatch
        configuration.strategies = []
        try DestinationOptions.validate(configuration)
        // Only an existing, writable store: anything else is refused, untouched, with exit 1.
        let analytics = try await Analytics.openingExistingStore(configuration, for: "flush")
        let start = analytics.counters
        let deadline = Date().addingTimeInterval(timeout)
        /// The closing line: what this flush did, and what is left.
        func summary() -> String {
            let counters = analytics.counters
            return "flush: \(RunSummary(from: start, to: counters).line), rejected \(counters.rejected - start.rejected), pending \(counters.store.pending + counters.store.inFlight)"
        }
        // Outstanding: pending, or in flight in a round that a timeout left running.
        func outstanding() -> Int {
            let store = analytics.counters.store
            return store.pending + store.inFlight
        }
        let initial = outstanding()
        let started = Date()
        let progress = ProgressPrinter(enabled: ProgressPrinter.isEnabled(options)) { _, elapsed in
            let counters = analytics.counters
            let delivered = counters.delivered - start.delivered
            let rate = Double(delivered) / max(0.001, Date().timeIntervalSince(started))
            return "flush: progress: \(delivered)/\(initial) delivered, \(counters.rejected - start.rejected) rejected, "
                + "\(counters.store.pending + counters.store.inFlight) pending, \(Int(rate)) events/s, \(Int(elapsed)) s"
        }
        defer { progress.stop() }
        while true {
            let remaining = deadline.timeIntervalSinceNow
            let pending = outstanding()
            if pending == 0 { break }
            if remaining <= 0 {
                let (delivered, rejected) = (analytics.counters.delivered, analytics.counters.rejected)
                printError("demo: flush timed out after \(Int(timeout)) s with \(pending) events still pending (delivered \(delivered), rejected \(rejected))")
                printError(summary())
                await analytics.close(timeout: 2)
                return 1
            }
            let report = await analytics.drain(timeout: min(remaining, 10)).report
            let (delivered, rejected) = (analytics.counters.delivered, analytics.counters.rejected)
            if report.stopReason == .endpointRefused {
                let cause = report.lastError ?? "the collector refused the endpoint"
                printError("demo: flush stopped: \(cause); \(outstanding()) events still pending (delivered \(delivered), rejected \(rejected)); check --endpoint and --write-key")
                printError(summary())
                await analytics.close(timeout: 2)
                return 1
            }
            // A backoff, a queue error, or events waiting for their retry: wait, don't spin.
            if report.stopReason == .backingOff || report.stopReason == .queueError || report.earliestNextAttempt != nil {
                let wait = min(max(0.1, report.earliestNextAttempt?.timeIntervalSinceNow ?? 1), max(0, deadline.timeIntervalSinceNow))
                let cause = report.lastError ?? (report.stopReason == .backingOff ? "backing off" : "events waiting for their retry time")
                printError("flush: waiting \(String(format: "%.1f", wait)) s before the next attempt (\(cause))")
                try? await Task.sleep(nanoseconds: UInt64(wait * 1_000_000_000))
            }
        }
        let counts = analytics.counters.store
        let closing = summary()
        // The URL the requests went to (scheme, host, port, path), or the file: never a key.
        let destination = analytics.dispatcher.configuration.destination.map(EndpointDisplay.text(of:)) ?? configuration.destination.format.rawValue
        await analytics.close()
        say("\(closing), kept rejected \(counts.rejected), to \(destination)")
        return 0
    }
}
