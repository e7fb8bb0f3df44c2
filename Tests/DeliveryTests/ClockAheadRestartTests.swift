@testable import Dispatcher
import Foundation
import Testing
import TestSupport

/// A date set ahead before the process started does not condemn events either: the store keeps
/// the first reading of the wall clock beside the steady clock on this boot (`ClockBaseline`),
/// and the next process's witness watches from it.
@Suite("A clock set ahead before a restart does not condemn events", .serialized, .runsAlone)
struct ClockAheadRestartTests {
    let policy = RetryPolicy(baseDelay: 0.1, maxDelay: 0.5, jitter: .none, maxRetryAfter: 1)
    let eightDays: TimeInterval = 8 * 86_400

    /// A worker whose wall clock is the real one moved by `offset`, watching from `baseline`.
    func worker(_ store: EventStore, _ server: LoopbackHTTPServer, offset: TimeInterval, baseline: ClockBaseline) throws -> DeliveryWorker {
        DeliveryWorker(
            queue: store, destination: try SegmentDestination(endpoint: server.baseURL, writeKey: "age-key",
                                                              transport: URLSessionTransport(requestTimeout: 5)),
            configuration: DeliveryWorkerConfiguration(deliverySize: 500, retryPolicy: policy, clock: { Date().addingTimeInterval(offset) },
                                                       clockBaseline: baseline))
    }

    @Test("500 events stored, then a restart with the date 8 days ahead and the network down: none rejected")
    func restartEightDaysAheadKeepsEventsPending() async throws {
        let directory = try TemporaryDirectory(prefix: "clock-ahead-restart")
        defer { directory.remove() }
        let server = try LoopbackHTTPServer(lifetime: 60)
        defer { server.stop() }
        let path = directory.file("store.sqlite").path
        // The first life: the clock is right; the store keeps its reading.
        do {
            let store = try EventStore(path: path)
            try store.insert(DeliveryFixtures.encodedEvents(500))
            _ = ClockBaseline.adopt(in: store)
            store.close()
        }
        // The next life, on the same boot, starts with the date set 8 days ahead.
        let store = try EventStore(path: path)
        defer { store.close() }
        let baseline = ClockBaseline.adopt(in: store, wall: Date().addingTimeInterval(eightDays))
        #expect(baseline.wall < Date(), "the earlier reading is kept")
        server.enqueue(.respond(status: 503))
        let report = try await worker(store, server, offset: eightDays, baseline: baseline)
            .deliverAvailable(deadline: Date().addingTimeInterval(eightDays + 30))
        #expect(report.rejected == 0, "rejected: \(report.lastError ?? "")")
        #expect(report.retried > 0 && report.stopReason == .backingOff, "\(report)")
        #expect(store.counts().rejected == 0 && store.counts().pending == 500)
    }

    @Test("A reading from another boot, or from a steady clock that went back, is replaced and kept")
    func aReadingFromAnotherBootIsReplaced() throws {
        let directory = try TemporaryDirectory(prefix: "clock-baseline")
        defer { directory.remove() }
        let store = try EventStore(path: directory.file("store.sqlite").path)
        defer { store.close() }
        let start = Date(timeIntervalSince1970: 1_800_000_000)
        let first = ClockBaseline.adopt(in: store, wall: start, steady: 1_000, boot: "boot-a")
        #expect(first == ClockBaseline(wall: start, steady: 1_000, boot: "boot-a"))
        // Same boot, later, the date set ahead: the first reading stays.
        #expect(ClockBaseline.adopt(in: store, wall: start.addingTimeInterval(eightDays), steady: 1_060, boot: "boot-a") == first)
        // Another boot: a new reading, kept from then on.
        let rebooted = ClockBaseline.adopt(in: store, wall: start.addingTimeInterval(3_600), steady: 30, boot: "boot-b")
        #expect(rebooted == ClockBaseline(wall: start.addingTimeInterval(3_600), steady: 30, boot: "boot-b"))
        #expect(try store.metadata(ClockBaseline.metadataKey).flatMap(ClockBaseline.init(metadata:)) == rebooted)
        // A steady clock behind the reading: a reboot the boot id did not reveal.
        let again = ClockBaseline.adopt(in: store, wall: start.addingTimeInterval(7_200), steady: 10, boot: "boot-b")
        #expect(again.steady == 10)
        #expect(ClockBaseline(metadata: "not a reading") == nil)
    }
}
