import Analytics
import BenchReference
import DataQuality
import Dispatcher
import Foundation
import LoopbackHTTP
import Onboarding
import Tracking
import Workload

/// Runs the phases in order, after a warm-up that sets the memory baseline: send cost and ingest
/// of the backlog, the plain-SQLite reference, store size, reopen, delivery of the backlog, the
/// full-stack send (with every stage timed, then with every event flagged), and the peer
/// workload in child processes; memory is sampled throughout.
///
/// Run it in release. The executable that runs it must also answer `bench --peer-workload` with
/// ``PeerWorkload/run(directory:)``, since the peer workload runs in child processes of it.
public struct Benchmark {
    /// The store's and journal's byte budget in the ingest phase: the one setting that differs
    /// from the default configuration, so that the whole backlog fits.
    static let backlogByteBudget = 1 << 30
    /// The folder the stores go in.
    let directory: URL
    /// Events in the backlog.
    let backlog: Int
    /// Sends timed.
    let sends: Int
    /// The contract the `_flagged` phase validates against: one the workload's events break.
    let flaggedContractJSON: String
    /// Told each phase and how far it got.
    let progress: ((String) -> Void)?

    /// A bench of `backlog` events and `sends` timed sends, on stores in `directory`; the
    /// `_flagged` phase validates against `flaggedContractJSON`, and `progress` hears each phase.
    public init(directory: URL, backlog: Int, sends: Int, flaggedContractJSON: String, progress: ((String) -> Void)? = nil) {
        self.directory = directory
        self.backlog = backlog
        self.sends = sends
        self.flaggedContractJSON = flaggedContractJSON
        self.progress = progress
    }

    /// Starts a runtime on a store of its own, delivers one event to `collector` and closes it.
    static func warmUp(directory: URL, collector: LoopbackHTTPServer) async throws {
        var configuration = AnalyticsConfiguration.commandLine(storePath: directory.appendingPathComponent("warm-up.sqlite").path)
        configuration.destination = .segment(endpoint: collector.baseURL, writeKey: "bench-write-key")
        let runtime = try Analytics(configuration: configuration)
        LoadGenerator(plugins: [runtime.dispatcher]).send(0)
        let report = await runtime.drain(timeout: 60).report
        // The round the start asks for (`boot`) may deliver it before the drain's own round.
        let delivered = runtime.counters.delivered
        await runtime.close()
        guard delivered == 1 else { throw BenchError("warm-up: the event was not delivered: \(report.lastError ?? "no error")") }
    }

    /// Runs every phase and returns the figures.
    /// - Throws: ``BenchError`` when a phase did not complete.
    public func run() async throws -> BenchResult {
        var result = BenchResult()
        let startup = ResidentMemory.currentMegabytes()
        let collector = try LoopbackHTTPServer(recordBodies: false, recordRequests: false, lifetime: 900)
        defer { collector.stop() }
        // The baseline is the process with the runtime started once and one event delivered:
        // the libraries (SQLite, Foundation's networking, TLS) loaded and set up. What the
        // memory figures then count is what the workload adds; `startup_rss_mb` is the process
        // before any of it.
        try await Self.warmUp(directory: directory, collector: collector)
        let baseline = ResidentMemory.currentMegabytes()
        let baselineAnonymous = ResidentMemory.anonymousMegabytes()
        let storePath = directory.appendingPathComponent("bench.sqlite").path
        let sampler = ResidentMemory.Sampler()

        // 1. Send cost on the caller and ingest: the backlog sent as fast as one thread can, with
        // no pacing, through an EventReporter to the runtime's Dispatcher, which has the default
        // configuration except a byte budget that holds the whole backlog. The userData is made
        // beforehand: only `EventReporter.send` is timed.
        var ingestConfiguration = AnalyticsConfiguration.commandLine(storePath: storePath)
        ingestConfiguration.batch = BatchConfiguration(maxQueueBytes: Self.backlogByteBudget)
        let analytics = try Analytics(configuration: ingestConfiguration)
        // The store opens in the background: the ingest is timed on an open store.
        guard await analytics.ready() == .available else { throw BenchError("the store did not open: \(analytics.dispatcher.storage)") }
        let load = LoadGenerator(plugins: [analytics.dispatcher])
        let variants = (0..<96).map { load.userData(for: $0) }
        var latencies = [UInt64](repeating: 0, count: min(sends, backlog))
        let ingestStart = DispatchTime.now().uptimeNanoseconds
        for index in 0..<backlog {
            let userData = variants[index % 96]
            if index < latencies.count {
                let start = DispatchTime.now().uptimeNanoseconds
                load.send(index, userData: userData)
                latencies[index] = DispatchTime.now().uptimeNanoseconds - start
            } else {
                load.send(index, userData: userData)
            }
            if index % 50_000 == 49_999 { progress?("ingest: \(index + 1)/\(backlog) sent") }
        }
        progress?("ingest: waiting for the store")
        let persisted = await analytics.drain(timeout: 600)
        let ingestSeconds = Double(DispatchTime.now().uptimeNanoseconds - ingestStart) / 1e9
        let counters = analytics.counters
        // Sends that never reached the journal: refused outright (they are counted by reason).
        result.add("dropped_events", Double(counters.refused), unit: "events", target: "= 0")
        guard persisted.persisted, counters.store.pending + counters.refused == backlog else {
            throw BenchError("ingest incomplete: \(counters.persisted) persisted, \(counters.refused) dropped, \(counters.store.evicted) evicted, store \(counters.store)")
        }
        latencies.sort()
        result.add("send_ns_p50", Double(latencies[latencies.count / 2]), unit: "ns", target: "≤ 1000")
        result.add("send_ns_p99", Double(latencies[latencies.count * 99 / 100]), unit: "ns", target: "≤ 5000")
        let ingestRate = Double(backlog) / ingestSeconds
        result.add("ingest_events_per_s", ingestRate.rounded(), unit: "ev/s", target: "≥ 0.5 × reference")

        progress?("SQLite reference")
        // 2. The reference: plain SQLite, rows of the same size, transactions of 1,000.
        let sample = load.sampleEvent()
        let userDataBytes = try StoredSize.jsonBytes(sample.userData)
        let rowBytes = userDataBytes + sample.category.utf8.count + sample.name.utf8.count + sample.action.utf8.count + 16 + 8 + 2 + 2
        let reference = try SQLiteReference.insertRows(
            count: min(backlog, 200_000), rowBytes: rowBytes, batch: 1_000, path: directory.appendingPathComponent("reference.sqlite").path)
        result.add("sqlite_reference_rows_per_s", reference.rounded(), unit: "rows/s")
        result.add("ingest_vs_reference", ingestRate / reference, unit: "×", target: "≥ 0.5")

        // 3. Store size per event, with the backlog in it: closing the store checkpoints its
        // write-ahead log into the file.
        await analytics.close()
        result.add("backlog_events", Double(backlog), unit: "events")
        result.add("bytes_per_event", (Double(StoredSize.fileBytes(storePath)) / Double(backlog)).rounded(), unit: "B", target: "≤ 300")

        // Start-up through the first send, in fresh processes: on a new store, and on a copy of
        // this one, which holds the backlog (see StartupPhase).
        progress?("start-up (child processes)")
        result.add("startup_ms_empty", try StartupPhase.measure(directory: directory, copying: nil), unit: "ms", target: "≤ 2 (median of \(StartupPhase.runs))")
        result.add("startup_ms_backlog", try StartupPhase.measure(directory: directory, copying: storePath), unit: "ms", target: "≤ 2 (median of \(StartupPhase.runs))")

        progress?("reopen")
        // Memory of the delivery phase on its own: what it adds to the ingest's.
        let beforeDelivery = ResidentMemory.currentMegabytes()
        let beforeDeliveryAnonymous = ResidentMemory.anonymousMegabytes()
        let deliverySampler = ResidentMemory.Sampler()
        // 4. Reopen with the backlog until the store is ready (it opens in the background),
        // accept the next event; then deliver it all.
        var deliveryConfiguration = AnalyticsConfiguration.commandLine(storePath: storePath)
        deliveryConfiguration.destination = .segment(endpoint: collector.baseURL, writeKey: "bench-write-key")
        deliveryConfiguration.batch = ingestConfiguration.batch
        let reopenStart = DispatchTime.now().uptimeNanoseconds
        let reopened = try Analytics(configuration: deliveryConfiguration)
        guard await reopened.ready() == .available else { throw BenchError("the store did not reopen: \(reopened.dispatcher.storage)") }
        LoadGenerator(plugins: [reopened.dispatcher]).send(0)
        let reopenMilliseconds = Double(DispatchTime.now().uptimeNanoseconds - reopenStart) / 1e6
        result.add("reopen_ms", (reopenMilliseconds * 100).rounded() / 100, unit: "ms", target: "≤ 100")

        progress?("delivery: \(backlog) pending")
        let deliveryStart = DispatchTime.now().uptimeNanoseconds
        // Automatic rounds (a full batch, the timer) deliver beside the explicit flushes: the
        // runtime's counter, not the flushes' reports, says how many were delivered.
        var delivered = 0
        while reopened.counters.store.pending > 0 {
            let report = await reopened.drain(timeout: 600).report
            let total = reopened.counters.delivered
            progress?("delivery: \(total)/\(backlog) delivered")
            if total == delivered { throw BenchError("delivery stalled: \(report.lastError ?? "no error")") }
            delivered = total
        }
        let deliveryRate = Double(delivered) / (Double(DispatchTime.now().uptimeNanoseconds - deliveryStart) / 1e9)
        result.add("delivery_events_per_s", deliveryRate.rounded(), unit: "ev/s", target: "≥ 100000")
        // Delivery reads, copies and deletes every row: beside the same run's SQLite reference,
        // the figure carries from host to host.
        result.add("delivery_vs_reference", (deliveryRate / reference * 1_000).rounded() / 1_000, unit: "×",
                   target: "(over the SQLite reference)")
        await reopened.close()
        let deliveryPeak = deliverySampler.stop()

        let peak = sampler.stop()
        result.add("startup_rss_mb", (startup * 10).rounded() / 10, unit: "MB", target: "(before the runtime started)")
        result.add("baseline_rss_mb", (baseline * 10).rounded() / 10, unit: "MB")
        result.add("peak_rss_mb", (peak.total * 10).rounded() / 10, unit: "MB", target: "≤ baseline + 16")
        result.add("baseline_rss_anon_mb", (baselineAnonymous * 10).rounded() / 10, unit: "MB")
        result.add("peak_rss_anon_mb", (peak.anonymous * 10).rounded() / 10, unit: "MB", target: "(heap only)")
        result.add("delivery_start_rss_mb", (beforeDelivery * 10).rounded() / 10, unit: "MB")
        result.add("delivery_peak_rss_mb", (deliveryPeak.total * 10).rounded() / 10, unit: "MB", target: "(delivery phase)")
        result.add("delivery_start_rss_anon_mb", (beforeDeliveryAnonymous * 10).rounded() / 10, unit: "MB")
        result.add("delivery_peak_rss_anon_mb", (deliveryPeak.anonymous * 10).rounded() / 10, unit: "MB", target: "(delivery phase)")

        // 5. Send cost on the path an app runs, every data-quality stage on. The events satisfy a
        // contract that describes them and each is distinct, as in an app whose contract matches
        // its code; `_flagged` repeats the 96 variants against the demo's contract, which they
        // break, so every event is flagged (unknown fields, duplicate) and reported.
        let distinct = try await addStackSendCost(to: &result, load: load)
        // The web inspector on, nobody connected, beside the same stack off: two stacks whose
        // sends alternate event by event (see InspectorPhase).
        progress?("full stack send cost, inspector on and off")
        let inspector = try await InspectorPhase(contractJSON: BenchContract.json, userData: Array(distinct.prefix(50_000)),
                                                 directory: directory).run()
        result.add("send_ns_p50_stack_inspector_off", Double(inspector.offMedian), unit: "ns", target: "(same run, inspector off)")
        result.add("send_ns_p50_stack_inspector_on", Double(inspector.onMedian), unit: "ns", target: "(inspector on, nobody connected)")
        result.add("inspector_overhead_pct", ((inspector.ratio - 1) * 1_000).rounded() / 10, unit: "%",
                   target: "≤ 5 (each event on over off)")
        progress?("full stack send cost, every event flagged")
        let repeated = (0..<min(sends, 50_000)).map { variants[$0 % 96] }
        let flagged = try await StackPhase(contractJSON: flaggedContractJSON, userData: repeated, directory: directory).run(name: "flagged")
        result.add("send_ns_p50_stack_flagged", Double(flagged.latencies[flagged.latencies.count / 2]), unit: "ns", target: "(every event flagged)")
        result.add("bytes_per_event_stack_flagged", flagged.bytesPerEvent, unit: "B", target: "(flags stored)")

        // Bytes on the wire (see WirePhase): hydrated events, Segment format, gzip and plain.
        progress?("bytes on the wire")
        let wire = try await WirePhase(events: min(sends, 20_000), directory: directory).run()
        result.add("wire_bytes_per_event", wire.wireBytesPerEvent, unit: "B", target: "≤ 100 (gzip; bodies, headers excluded)")
        result.add("wire_bytes_per_event_plain", wire.plainBytesPerEvent, unit: "B", target: "(compression off)")
        result.add("compression_ns_per_event", wire.compressionNanosecondsPerEvent, unit: "ns", target: "(gzip encoder)")

        // 6. The peer workload, in fresh child processes (see PeerWorkload): the median of three
        // runs and the highest, since a peak moves with what else the machine is doing.
        progress?("peer workload (child processes)")
        let peaks = try (0..<3).map { _ in try PeerWorkload.measureInChild() }.sorted()
        result.add(PeerWorkload.key, peaks[1], unit: "MB", target: "< \(PeerWorkload.peerPeakMegabytes) (the peer's quoted peak; ours: median of 3)")
        result.add(PeerWorkload.key + "_max", peaks[2], unit: "MB", target: "(highest of the 3)")

        // 7. Idle cost, in a fresh child process delivering to this collector (see IdlePhase).
        progress?("idle (child process, \(Int(IdlePhase.window)) s)")
        try IdlePhase.add(to: &result, collector: collector.baseURL)
        return result
    }
}
