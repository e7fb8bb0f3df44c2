@testable import Dispatcher
import Foundation
import TestSupport
import Testing
import Tracking

@Suite("Dispatcher: the first events of a run, across a suspension", .runsAlone)
struct InitialEventsAcrossSuspensionTests {
    @Test("initialEvents counts the Dispatcher's run: after the storage is released and taken back, a later event waits")
    func initialEventsAreCountedOncePerRun() async throws {
        let directory = try TemporaryDirectory(prefix: "dispatcher-initial-suspension")
        defer { directory.remove() }
        let server = try LoopbackHTTPServer()
        defer { server.stop() }
        let dispatcher = try makeDispatcher(
            directory, server: server, batch: BatchConfiguration(deliverySize: 1_000, flushInterval: 0, initialEventsCount: 1),
            strategy: [.initialEvents])
        let reporter = EventReporter<Checkout>(plugins: [dispatcher])
        reporter.send(name: .view, action: .open)
        #expect(await eventually(timeout: 5) { segmentMessageIDs(server).count == 1 }, "the run's first event goes out at once")
        #expect(await eventually(timeout: 5) { dispatcher.counters.store.total == 0 })
        #expect(await dispatcher.releaseStorageForSuspension(timeout: 5))
        #expect(await dispatcher.resumeStorageAfterSuspension() == .available)
        reporter.send(name: .view, action: .open)
        #expect(await eventually(timeout: 5) { dispatcher.counters.store.pending == 1 }, "persisted")
        try await Task.sleep(nanoseconds: 500_000_000)
        #expect(segmentMessageIDs(server).count == 1, "not a first event of the run: it waits for a batch or a drain")
        #expect(await dispatcher.drain(timeout: 5).report.delivered == 1)
        await dispatcher.close()
    }
}
