import Analytics
import Dispatcher
import Foundation
import LoopbackHTTP
import Onboarding
import Tracking
import Workload

/// Bytes on the wire: hydrated events sent through the runtime with every data-quality stage
/// on (as ``StackPhase`` starts it), delivered in the Segment format at the default batch size
/// to a loopback collector, once with gzip (Segment's default) and once plain. Delivery is
/// paused until every event is stored, so each request is a full batch.
///
/// Bytes are request bodies as the collector received them (`Content-Length`), headers
/// excluded. The compression time is the encoder's own, timed over the very bodies the plain run
/// sent (one call per request, as delivery makes it).
public struct WirePhase {
    /// Events sent in each run.
    let events: Int
    /// The folder the stores and contract go in.
    let directory: URL

    /// What the phase measured.
    public struct Figures: Sendable {
        /// Request body bytes per event, gzip.
        public let wireBytesPerEvent: Double
        /// Request body bytes per event, plain.
        public let plainBytesPerEvent: Double
        /// Nanoseconds in the gzip encoder per event.
        public let compressionNanosecondsPerEvent: Double
        /// Requests per run (batches).
        public let requests: Int
    }

    /// A phase of `events` events per run, on stores in `directory`.
    public init(events: Int, directory: URL) {
        self.events = events
        self.directory = directory
    }

    /// Runs both deliveries and times the encoder.
    /// - Throws: ``BenchError`` when a run did not deliver every event once.
    public func run() async throws -> Figures {
        let compressed = try await deliver(compression: .gzip)
        let plain = try await deliver(compression: .plain)
        var elapsed: UInt64 = 0
        for body in plain.bodies {
            let start = DispatchTime.now().uptimeNanoseconds
            guard RequestCompression.gzip.encode(body) != nil else { throw BenchError("wire: the gzip encoder failed") }
            elapsed += DispatchTime.now().uptimeNanoseconds - start
        }
        return Figures(
            wireBytesPerEvent: (Double(compressed.bytes) / Double(events) * 10).rounded() / 10,
            plainBytesPerEvent: (Double(plain.bytes) / Double(events) * 10).rounded() / 10,
            compressionNanosecondsPerEvent: (Double(elapsed) / Double(events)).rounded(),
            requests: compressed.requests)
    }

    /// Sends the events through a fresh runtime delivering with `compression`; returns the
    /// body bytes received, the requests, and (plain only) the bodies.
    private func deliver(compression: RequestCompression) async throws -> (bytes: Int, requests: Int, bodies: [Data]) {
        let collector = try LoopbackHTTPServer(recordBodies: compression == .plain, lifetime: 600)
        defer { collector.stop() }
        let name = "wire-\(compression.rawValue)"
        let contractPath = directory.appendingPathComponent("\(name)-contract.json").path
        try Data(BenchContract.json.utf8).write(to: URL(fileURLWithPath: contractPath))
        var configuration = AnalyticsConfiguration.commandLine(storePath: directory.appendingPathComponent("\(name).sqlite").path)
        configuration.contractPath = contractPath
        configuration.consentCategories = ["Marketing"]
        configuration.batch = BatchConfiguration(maxQueueBytes: Benchmark.backlogByteBudget)
        configuration.destination = .segment(endpoint: collector.baseURL, writeKey: "bench-write-key")
        configuration.destination.compression = compression
        let stack = try Analytics(configuration: configuration)
        let app = LoadGenerator(reporter: stack.reporter(for: OnboardingAnalytics.self))
        // Paused until every event is stored: a round that a full batch starts while the store is
        // still filling would send a part of one, and the figures would depend on timing.
        stack.pause()
        for index in 0..<events { app.send(index, userData: app.distinctUserData(for: index)) }
        let storing = Date().addingTimeInterval(120)
        while stack.counters.persisted < events {
            guard Date() < storing else { throw BenchError("wire (\(compression.rawValue)): \(stack.counters.persisted) of \(events) stored") }
            try await Task.sleep(nanoseconds: 1_000_000)
        }
        stack.resume()
        var delivered = 0
        while delivered < events {
            let report = await stack.drain(timeout: 120).report
            let total = stack.counters.delivered
            if total == delivered { throw BenchError("wire (\(compression.rawValue)): delivery stalled: \(report.lastError ?? "no error")") }
            delivered = total
        }
        await stack.close()
        let encodings = Set(collector.requests.map { $0.headers["content-encoding"] ?? "plain" })
        guard delivered == events, encodings == [compression == .gzip ? "gzip" : "plain"] else {
            throw BenchError("wire (\(compression.rawValue)): \(delivered) of \(events) delivered, encodings \(encodings.sorted())")
        }
        return (collector.receivedBodyBytes, collector.requestCount, collector.requests.map(\.body))
    }
}
