@testable import Dispatcher
import Foundation
import TestSupport
import Testing
import Tracking

@Suite("Dispatcher: persist, batch, deliver", .runsAlone)
struct DispatcherTests {
    @Test("Events sent through a reporter arrive at the collector once each, and leave the store")
    func deliversEverything() async throws {
        let directory = try TemporaryDirectory(prefix: "dispatcher")
        defer { directory.remove() }
        let server = try LoopbackHTTPServer()
        defer { server.stop() }
        let dispatcher = try makeDispatcher(directory, server: server, batch: BatchConfiguration(deliverySize: 1_000, flushInterval: 0))
        let reporter = EventReporter<Checkout>(plugins: [dispatcher])
        var sent: [String] = []
        for index in 0..<120 {
            let receipts = reporter.send(name: .pay, action: .tap, userData: ["index": .int(index)])
            let receipt = try #require(receipts.first)
            #expect(receipt.plugin == "dispatcher" && receipt.form == "journal")
            sent.append(receipt.eventID.uuidString.lowercased())
        }
        let report = await dispatcher.drain(timeout: 20).report
        #expect(report.delivered == 120)
        #expect(segmentMessageIDs(server) == sent, "delivered in order, once each")
        #expect(server.maxConcurrentRequests == 1, "one request in flight per destination")
        let counters = dispatcher.counters
        #expect(counters.sent == 120 && counters.persisted == 120 && counters.delivered == 120)
        #expect(counters.store.pending == 0 && counters.store.inFlight == 0)
        let timeline = dispatcher.timeline.steps(of: try #require(UUID(uuidString: sent[0])))
        #expect(timeline.map(\.kind) == [.persisted, .batched, .attempt, .delivered])
        // The request's start, then its outcome and how long it took.
        #expect(timeline[1].detail?.hasSuffix("in one request to segment") == true)
        #expect(timeline[2].detail?.contains(" after ") == true && timeline[1].at <= timeline[2].at)
        await dispatcher.close()
    }

    @Test("A full batch triggers delivery by itself; pause keeps it back; resume lets it go")
    func pauseAndResume() async throws {
        let directory = try TemporaryDirectory(prefix: "dispatcher-pause")
        defer { directory.remove() }
        let server = try LoopbackHTTPServer()
        defer { server.stop() }
        let dispatcher = try makeDispatcher(directory, server: server, batch: BatchConfiguration(deliverySize: 10, flushInterval: 0))
        let reporter = EventReporter<Checkout>(plugins: [dispatcher])
        dispatcher.pause()
        #expect(dispatcher.isPaused)
        for _ in 0..<30 { reporter.send(name: .view, action: .open) }
        try await Task.sleep(nanoseconds: 500_000_000)
        #expect(server.requestCount == 0, "nothing is delivered while paused")
        #expect(dispatcher.counters.store.pending == 30, "but everything is persisted")
        dispatcher.resume()
        #expect(await eventually(timeout: 10) { segmentMessageIDs(server).count == 30 })
        await dispatcher.close()
    }

    @Test("Lifecycle moments deliver only when their strategy is set; unreachable waits")
    func strategies() async throws {
        let directory = try TemporaryDirectory(prefix: "dispatcher-strategy")
        defer { directory.remove() }
        let server = try LoopbackHTTPServer()
        defer { server.stop() }
        let dispatcher = try makeDispatcher(
            directory, server: server, batch: BatchConfiguration(deliverySize: 1_000, flushInterval: 0),
            strategy: [.didEnterBackground, .reachabilityPings])
        let reporter = EventReporter<Checkout>(plugins: [dispatcher])
        for _ in 0..<5 { reporter.send(name: .view, action: .open) }
        #expect(await eventually(timeout: 10) { dispatcher.counters.persisted == 5 })
        dispatcher.handle(.willEnterForeground)
        try await Task.sleep(nanoseconds: 300_000_000)
        #expect(server.requestCount == 0, "willEnterForeground is not in the strategy")
        dispatcher.handle(.didEnterBackground)
        #expect(await eventually(timeout: 10) { segmentMessageIDs(server).count == 5 })

        dispatcher.handle(.unreachable)
        for _ in 0..<3 { reporter.send(name: .view, action: .open) }
        dispatcher.handle(.didEnterBackground)
        try await Task.sleep(nanoseconds: 300_000_000)
        #expect(segmentMessageIDs(server).count == 5, "no automatic delivery while unreachable")
        dispatcher.handle(.reachable)
        #expect(await eventually(timeout: 10) { segmentMessageIDs(server).count == 8 })
        await dispatcher.close()
    }

    @Test("initialEvents delivers the first events of a run at once; the timer delivers the rest")
    func initialEventsAndTimer() async throws {
        let directory = try TemporaryDirectory(prefix: "dispatcher-initial")
        defer { directory.remove() }
        let server = try LoopbackHTTPServer()
        defer { server.stop() }
        let dispatcher = try makeDispatcher(
            directory, server: server, batch: BatchConfiguration(deliverySize: 1_000, flushInterval: 4, initialEventsCount: 1),
            strategy: [.initialEvents])
        let reporter = EventReporter<Checkout>(plugins: [dispatcher])
        reporter.send(name: .view, action: .open)
        let started = Date()
        #expect(await eventually(timeout: 3) { segmentMessageIDs(server).count == 1 }, "the first event goes out before the timer")
        // Let that round finish (acknowledged, nothing in flight) before sending more.
        #expect(await eventually(timeout: 3) { dispatcher.counters.store.total == 0 })
        for _ in 0..<4 { reporter.send(name: .view, action: .open) }
        try await Task.sleep(nanoseconds: 300_000_000)
        if Date().timeIntervalSince(started) < 3.5 {
            #expect(segmentMessageIDs(server).count == 1, "later events wait for the timer")
        }
        #expect(await eventually(timeout: 10) { segmentMessageIDs(server).count == 5 }, "the timer delivers the rest")
        await dispatcher.close()
    }

    @Test("drain returns when its timeout passes, saying so, while the collector stalls")
    func drainTimesOut() async throws {
        let directory = try TemporaryDirectory(prefix: "dispatcher-drain")
        defer { directory.remove() }
        let server = try LoopbackHTTPServer(defaultAction: .stall(seconds: 5))
        defer { server.stop() }
        let dispatcher = try makeDispatcher(directory, server: server, requestTimeout: 10)
        EventReporter<Checkout>(plugins: [dispatcher]).send(name: .pay, action: .tap)
        let started = Date()
        let result = await dispatcher.drain(timeout: 1)
        let elapsed = Date().timeIntervalSince(started)
        #expect(result.persisted, "the event reached the store")
        #expect(result.timedOut)
        #expect(elapsed < 4, "drain honoured its timeout (took \(elapsed) s)")
        await dispatcher.close()
    }

    @Test("The queue bound evicts the oldest pending events, counts them and reports them")
    func evictionIsCountedAndReported() async throws {
        let directory = try TemporaryDirectory(prefix: "dispatcher-evict")
        defer { directory.remove() }
        let reports = DiagnosticLog()
        let dispatcher = try Dispatcher(configuration: DispatcherConfiguration(
            storePath: directory.file("store.sqlite").path, batch: BatchConfiguration(maxQueueSize: 10),
            onDiagnostic: { reports.append($0) }))
        let reporter = EventReporter<Checkout>(plugins: [dispatcher])
        let ids = (0..<25).compactMap { _ in reporter.send(name: .view, action: .open).first?.eventID }
        _ = await dispatcher.drain(timeout: 10)
        let counters = dispatcher.counters
        #expect(counters.store.pending == 10)
        #expect(counters.evicted == 15)
        let kept = try dispatcher.records().map(\.id)
        #expect(kept == Array(ids.suffix(10)), "the newest ten are kept")
        // The report is made by the writer thread just after its commit: give it a moment.
        #expect(await eventually(timeout: 5) { reports.messages.contains { $0.contains("evicted") } })
        await dispatcher.close()
    }

    @Test("An impossible configuration is refused with the field named")
    func impossibleConfiguration() throws {
        let directory = try TemporaryDirectory(prefix: "dispatcher-config")
        defer { directory.remove() }
        for (batch, field) in [
            (BatchConfiguration(deliverySize: 0), "deliverySize"),
            (BatchConfiguration(maxQueueSize: 0), "maxQueueSize"),
            (BatchConfiguration(flushInterval: -1), "flushInterval"),
            (BatchConfiguration(flushInterval: .nan), "flushInterval"),
        ] {
            let error = #expect(throws: ConfigurationError.self) {
                _ = try Dispatcher(configuration: DispatcherConfiguration(storePath: directory.file("s.sqlite").path, batch: batch))
            }
            #expect(error?.field == field)
        }
    }

    @Test("The write key never appears in what the Dispatcher reports")
    func writeKeyNeverReported() async throws {
        let directory = try TemporaryDirectory(prefix: "dispatcher-secret")
        defer { directory.remove() }
        let server = try LoopbackHTTPServer(defaultAction: .respond(status: 400, body: Data("bad".utf8)))
        defer { server.stop() }
        let reports = DiagnosticLog()
        let dispatcher = try makeDispatcher(directory, server: server, onDiagnostic: { reports.append($0) })
        EventReporter<Checkout>(plugins: [dispatcher]).send(name: .pay, action: .tap)
        let report = await dispatcher.drain(timeout: 10).report
        #expect(report.rejected == 1)
        let records = try dispatcher.records(StoreQuery(status: .rejected))
        #expect(records.count == 1)
        let text = reports.messages.joined() + "\(report)" + "\(dispatcher.configuration.destination.map { "\($0)" } ?? "")" + (records.first?.lastError ?? "")
        #expect(!text.contains("secret-write-key"))
        await dispatcher.close()
    }
}

/// Collects diagnostics from any thread.
final class DiagnosticLog: Sendable {
    private let entries = LockedValue([String]())
    func append(_ diagnostic: DispatcherDiagnostic) { entries.withLock { $0.append(diagnostic.description) } }
    var messages: [String] { entries.withLock { $0 } }
}
