import Dispatcher
import Foundation

/// `demo flush --store PATH --endpoint URL --format F [--write-key K] [--timeout SECONDS]`.
///
/// Exit 0 when nothing is left pending (rejected events are kept but are not pending),
/// 1 with a message when the time ran out first, or when the collector refused the endpoint or
/// the credentials (HTTP 401, 403, 404: the events stay pending), or when `--store` is not an
/// existing, writable event store (missing, a folder, another file, read-only): that file is
/// left untouched.
enum FlushCommand {
    static func run(_ arguments: [String]) async throws -> Int32 {
        let options = try CommandLineOptions(arguments, valueOptions: ["store", "endpoint", "format", "write-key", "timeout"], flagOptions: [])
        guard let path = options.value("store") else { throw UsageError("flush needs --store PATH") }
        guard let endpoint = options.value("endpoint") else { throw UsageError("flush needs --endpoint URL") }
        guard let format = options.value("format") else { throw UsageError("flush needs --format segment|snowplow|ndjson") }
        let timeout = try options.seconds("timeout", default: 300)
        let destination = try DestinationOptions.make(endpoint: endpoint, format: format, writeKey: options.value("write-key"))
        // Only an existing, writable store: anything else is refused, untouched, with exit 1.
        try StoreFileCheck.require(path, forWriting: true)

        let dispatcher = try Dispatcher(configuration: DispatcherConfiguration(
            storePath: path, destination: destination,
            batch: BatchConfig(maxQueueSize: Int.max / 2, maxQueueBytes: Int.max / 2, deliverySize: 500, flushInterval: 0),
            strategy: []))
        if case .unavailable(let reason) = dispatcher.storage {
            await dispatcher.close(timeout: 1)
            throw StoreFileRefusal("cannot flush \(path): \(reason)")
        }
        let start = dispatcher.counters
        let deadline = Date().addingTimeInterval(timeout)
        /// The closing line: what this flush did, and what is left.
        func summary() -> String {
            let counters = dispatcher.counters
            return "flush: \(RunSummary(from: start, to: counters).line), rejected \(counters.rejected - start.rejected), pending \(counters.store.pending + counters.store.inFlight)"
        }
        // Outstanding: pending, or in flight in a round that a timeout left running.
        func outstanding() -> Int {
            let store = dispatcher.counters.store
            return store.pending + store.inFlight
        }
        let initial = outstanding()
        let started = Date()
        var lastProgress = Date.distantPast
        while true {
            let remaining = deadline.timeIntervalSinceNow
            let pending = outstanding()
            if pending == 0 { break }
            if remaining <= 0 {
                let (delivered, rejected) = (dispatcher.counters.delivered, dispatcher.counters.rejected)
                printError("demo: flush timed out after \(Int(timeout)) s with \(pending) events still pending (delivered \(delivered), rejected \(rejected))")
                printError(summary())
                await dispatcher.close(timeout: 2)
                return 1
            }
            let report = await dispatcher.flush(timeout: min(remaining, 10))
            let (delivered, rejected) = (dispatcher.counters.delivered, dispatcher.counters.rejected)
            if report.stopReason == .endpointRefused {
                let cause = report.lastError ?? "the collector refused the endpoint"
                printError("demo: flush stopped: \(cause); \(outstanding()) events still pending (delivered \(delivered), rejected \(rejected)); check --endpoint and --write-key")
                printError(summary())
                await dispatcher.close(timeout: 2)
                return 1
            }
            if initial >= 1_000, Date().timeIntervalSince(lastProgress) >= 1 {
                lastProgress = Date()
                let rate = Double(delivered) / max(0.001, Date().timeIntervalSince(started))
                printError("flush: \(delivered)/\(initial) delivered, \(rejected) rejected, \(Int(rate)) events/s")
            }
            // A backoff, a queue error, or events waiting for their retry: wait, don't spin.
            if report.stopReason == .backingOff || report.stopReason == .queueError || report.earliestNextAttempt != nil {
                let wait = min(max(0.1, report.earliestNextAttempt?.timeIntervalSinceNow ?? 1), max(0, deadline.timeIntervalSinceNow))
                if let error = report.lastError { printError("flush: waiting \(String(format: "%.1f", wait)) s after: \(error)") }
                try? await Task.sleep(nanoseconds: UInt64(wait * 1_000_000_000))
            }
        }
        let counts = dispatcher.counters.store
        let closing = summary()
        await dispatcher.close()
        say("\(closing), kept rejected \(counts.rejected), to \(destination.name)")
        return 0
    }
}
