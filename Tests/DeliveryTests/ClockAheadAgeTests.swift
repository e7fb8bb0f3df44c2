@testable import Dispatcher
import Foundation
import Testing
import TestSupport
import Tracking

/// A clock set ahead cannot condemn pending events: `maxAge` counts only the age that steps of
/// the wall clock cannot account for, measured against a clock that setting the date does not move.
@Suite("A clock set ahead does not condemn events by age", .serialized, .runsAlone)
struct ClockAheadAgeTests {
    /// 0.1 s doubling to 0.5 s, `Retry-After` up to 1 s, 7 days of age.
    let policy = RetryPolicy(baseDelay: 0.1, maxDelay: 0.5, jitter: .none, maxRetryAfter: 1)
    let eightDays: TimeInterval = 8 * 86_400

    /// A worker on the real clock moved by `offset`, as a person setting the date moves it.
    func worker(_ store: EventStore, _ server: LoopbackHTTPServer, offset: ClockOffset) throws -> DeliveryWorker {
        DeliveryWorker(
            queue: store, destination: try SegmentDestination(endpoint: server.baseURL, writeKey: "age-key",
                                                              transport: URLSessionTransport(requestTimeout: 5)),
            configuration: DeliveryWorkerConfiguration(deliverySize: 500, retryPolicy: policy, clock: { offset.now }))
    }

    @Test("500 events failing with the clock 8 days ahead stay pending, then are delivered once it is corrected")
    func eightDaysAheadKeepsEventsPending() async throws {
        let directory = try TemporaryDirectory(prefix: "clock-ahead-age")
        defer { directory.remove() }
        let server = try LoopbackHTTPServer(lifetime: 60)
        defer { server.stop() }
        let store = try EventStore(path: directory.file("store.sqlite").path)
        defer { store.close() }
        let events = DeliveryFixtures.encodedEvents(500)
        try store.insert(events)

        // The clock is set 8 days ahead while the app runs, and the network is down (503).
        let offset = ClockOffset()
        let worker = try worker(store, server, offset: offset)
        offset.seconds = eightDays
        server.enqueue(.respond(status: 503))
        let failed = await worker.deliverAvailable(deadline: offset.now.addingTimeInterval(30))
        #expect(failed.rejected == 0, "rejected: \(failed.lastError ?? "")")
        #expect(failed.retried > 0 && failed.stopReason == .backingOff)
        #expect(store.counts().rejected == 0 && store.counts().pending == 500)
        #expect(try store.query(StoreQuery(status: .rejected)).isEmpty)

        // The clock is corrected and the network is back: every event is delivered.
        offset.seconds = 0
        var delivered = 0
        let deadline = Date().addingTimeInterval(30)
        while delivered < 500, Date() < deadline {
            delivered += await worker.deliverAvailable(deadline: Date().addingTimeInterval(10), ignoringBackoff: true).delivered
        }
        #expect(delivered == 500 && store.counts().pending == 0 && store.counts().rejected == 0)
    }

    @Test("An event really older than maxAge is still rejected when the clock was never stepped")
    func genuinelyOldEventsAreStillRejected() async throws {
        let directory = try TemporaryDirectory(prefix: "clock-old-age")
        defer { directory.remove() }
        let server = try LoopbackHTTPServer(lifetime: 30)
        defer { server.stop() }
        let store = try EventStore(path: directory.file("store.sqlite").path)
        defer { store.close() }
        // Persisted 8 days ago by a clock that was right: the witness saw no step since.
        try store.insert(DeliveryFixtures.encodedEvents(3), now: Date().addingTimeInterval(-eightDays))
        server.enqueue(.respond(status: 503))
        let report = try await worker(store, server, offset: ClockOffset()).deliverAvailable(deadline: Date().addingTimeInterval(30))
        #expect(report.rejected == 3)
        #expect(report.lastError?.contains("older than 604800 s") == true)
    }

    @Test("The witness counts wall-clock steps either way, and remembers a step back after the clock returns")
    func witnessMeasuresSteps() {
        let steady = SteadySeconds()
        let start = Date(timeIntervalSince1970: 1_800_000_000)
        let witness = WallClockWitness(wall: start, steady: { steady.value })
        steady.value = 60
        #expect(witness.steppedSeconds(at: start.addingTimeInterval(60)) == 0, "a minute passed, no step")
        #expect(witness.steppedSeconds(at: start.addingTimeInterval(60 + eightDays)) == eightDays, "8 days ahead")
        #expect(witness.steppedSeconds(at: start.addingTimeInterval(60)) == 0, "corrected")
        #expect(witness.steppedSeconds(at: start.addingTimeInterval(60 - eightDays)) == 0, "8 days behind")
        // Back to the right time: something stamped while behind may look 8 days older than it is.
        #expect(witness.steppedSeconds(at: start.addingTimeInterval(60)) == eightDays)
    }

    @Test("decide: an age that clock steps account for does not reject")
    func decideDiscountsClockSteps() {
        let now = Date(timeIntervalSince1970: 1_800_000_000)
        let created = now.addingTimeInterval(-eightDays)
        let outcome = DeliveryOutcome.retry(reason: "HTTP 503", retryAfter: nil)
        let stepped = policy.decide(outcome, attempt: 1, createdAt: created, batchCount: 1, now: now, random: 0,
                                    clockStep: eightDays - 60)
        #expect(stepped == .retry(at: now.addingTimeInterval(0.1), reason: "HTTP 503"))
        let real = policy.decide(outcome, attempt: 1, createdAt: created, batchCount: 1, now: now, random: 0)
        #expect(real == .reject(reason: "gave up: older than 604800 s: HTTP 503"))
    }
}

/// The real clock moved by a number of seconds a test sets, as a person setting the date does.
final class ClockOffset: Sendable {
    private let offset = LockedValue<TimeInterval>(0)
    var seconds: TimeInterval {
        get { offset.withLock { $0 } }
        set { offset.withLock { $0 = newValue } }
    }
    var now: Date { Date().addingTimeInterval(seconds) }
}

/// A forward-only clock a test sets by hand.
final class SteadySeconds: Sendable {
    private let seconds = LockedValue<TimeInterval>(0)
    var value: TimeInterval {
        get { seconds.withLock { $0 } }
        set { seconds.withLock { $0 = newValue } }
    }
}
