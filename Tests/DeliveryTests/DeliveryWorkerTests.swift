@testable import Dispatcher
@testable import DispatcherTestKit
import Foundation
import Testing
import TestSupport
import Tracking

/// A clock the test moves by hand.
final class ManualClock: Sendable {
    private let current: LockedValue<Date>
    init(_ start: Date) { current = LockedValue(start) }
    var now: Date { current.withLock { $0 } }
    func advance(_ seconds: TimeInterval) { current.withLock { $0 += seconds } }
}

/// Collects what a worker reports to its observer.
final class AttemptLog: Sendable {
    private let entries = LockedValue<[DeliveryAttempt]>([])
    func record(_ attempt: DeliveryAttempt) { entries.withLock { $0.append(attempt) } }
    var attempts: [DeliveryAttempt] { entries.withLock { $0 } }
}

/// Collects the running reports a worker publishes.
final class ProgressLog: Sendable {
    private let entries = LockedValue<[DeliveryReport]>([])
    func record(_ report: DeliveryReport) { entries.withLock { $0.append(report) } }
    var reports: [DeliveryReport] { entries.withLock { $0 } }
}

@Suite("Delivery worker with a spy transport and an in-memory queue", .runsAlone)
struct DeliveryWorkerTests {
    let start = Date(timeIntervalSince1970: 1_795_255_200)

    func makeWorker(
        queue: InMemoryDeliveryQueue, spy: SpyTransport, clock: ManualClock, log: AttemptLog = AttemptLog(),
        deliverySize: Int = 10, policy: RetryPolicy = RetryPolicy(baseDelay: 2, maxDelay: 60, jitter: .full, maxAttempts: 3)
    ) throws -> DeliveryWorker {
        let destination = try SegmentDestination(endpoint: URL(string: "https://api.example.com")!, writeKey: "k", transport: spy)
        let configuration = DeliveryWorkerConfiguration(
            deliverySize: deliverySize, retryPolicy: policy, clock: { clock.now }, random: { 0.5 })
        return DeliveryWorker(queue: queue, destination: destination, configuration: configuration,
                              observer: { log.record($0) })
    }

    @Test("delivers everything in batches of deliverySize and acknowledges in order")
    func deliversAll() async throws {
        let events = DeliveryFixtures.encodedEvents(25)
        let queue = InMemoryDeliveryQueue(events: events, createdAt: start)
        let spy = SpyTransport()
        let log = AttemptLog()
        let progress = ProgressLog()
        let destination = try SegmentDestination(endpoint: URL(string: "https://api.example.com")!, writeKey: "k", transport: spy)
        let worker = DeliveryWorker(
            queue: queue, destination: destination,
            configuration: DeliveryWorkerConfiguration(deliverySize: 10, clock: { self.start }, random: { 0.5 }),
            observer: { log.record($0) }, progress: { progress.record($0) })
        let report = await worker.deliverAvailable(deadline: start.addingTimeInterval(60))
        #expect(report.delivered == 25 && report.retried == 0 && report.rejected == 0)
        #expect(progress.reports.map(\.delivered) == [10, 20, 25])
        #expect(report.requests == 3)
        #expect(report.stopReason == .drained && !report.hasDueEvents)
        #expect(queue.acknowledged == events.map(\.id))
        #expect(queue.storedEvents.isEmpty)
        #expect(spy.requests.count == 3)
        #expect(log.attempts.map(\.decision) == [.acknowledge, .acknowledge, .acknowledge])
        #expect(log.attempts.flatMap(\.ids) == events.map(\.id))
        #expect(log.attempts.allSatisfy { $0.events.allSatisfy { $0.number == 1 } && $0.statusCode == 200 })
        #expect(await worker.state == .idle)
    }

    @Test("a 500 schedules an exact retry, counts the attempt and ends the round")
    func serverErrorBacksOff() async throws {
        let queue = InMemoryDeliveryQueue(events: DeliveryFixtures.encodedEvents(15), createdAt: start)
        let spy = SpyTransport(responses: [.success(HTTPResponse(statusCode: 500))])
        let clock = ManualClock(start)
        let worker = try makeWorker(queue: queue, spy: spy, clock: clock)
        let report = await worker.deliverAvailable(deadline: start.addingTimeInterval(60))
        #expect(report.retried == 10 && report.delivered == 0)
        #expect(report.stopReason == .backingOff && !report.hasDueEvents)
        // attempt 1, base 2 s, full jitter at 0.5: 1 s.
        #expect(report.earliestNextAttempt == start.addingTimeInterval(1))
        #expect(report.lastError == "HTTP 500")
        #expect(spy.requests.count == 1)
        let retried = queue.events(.pending).filter { $0.attempts == 1 }
        #expect(retried.count == 10)
        #expect(retried.allSatisfy { $0.nextAttemptAt == start.addingTimeInterval(1) && $0.lastError == "HTTP 500" })

        // The next round delivers the 5 untouched events; the retried ones wait for their time.
        let second = await worker.deliverAvailable(deadline: start.addingTimeInterval(60))
        #expect(second.delivered == 5)
        clock.advance(1)
        let third = await worker.deliverAvailable(deadline: start.addingTimeInterval(60))
        #expect(third.delivered == 10 && third.stopReason == .drained)
        #expect(queue.storedEvents.isEmpty)
    }

    @Test("overlapped store work: a batch delivered whole is acknowledged, a batch claimed ahead is released untouched when the round stops")
    func overlappedQueueWork() async throws {
        let events = DeliveryFixtures.encodedEvents(25)
        let queue = InMemoryDeliveryQueue(events: events, createdAt: start)
        let spy = SpyTransport(responses: [.success(HTTPResponse(statusCode: 200)), .success(HTTPResponse(statusCode: 503))])
        let log = AttemptLog()
        let worker = try makeWorker(queue: queue, spy: spy, clock: ManualClock(start), log: log)
        let report = await worker.deliverAvailable(deadline: start.addingTimeInterval(60))
        #expect(report.delivered == 10 && report.retried == 10 && report.stopReason == .backingOff)
        #expect(queue.acknowledged == events.prefix(10).map(\.id), "the first batch, acknowledged beside the second request")
        #expect(queue.events(.inFlight).isEmpty, "nothing is left in flight")
        let untouched = queue.events(.pending).filter { $0.attempts == 0 }
        #expect(untouched.map(\.event.id) == events.suffix(5).map(\.id), "the third batch, claimed ahead, is back untouched")
        #expect(log.attempts.first?.decision == .acknowledge && log.attempts.first?.statusCode == 200)
        #expect(log.attempts.first?.ids == events.prefix(10).map(\.id))
        #expect(spy.requests.count == 2)
    }

    @Test("a 400 rejects the batch and the round goes on")
    func badRequestRejects() async throws {
        let queue = InMemoryDeliveryQueue(events: DeliveryFixtures.encodedEvents(20), createdAt: start)
        // A 400 to the gzip body and to its plain resend.
        let invalid = HTTPResponse(statusCode: 400, body: Data("invalid".utf8))
        let spy = SpyTransport(responses: [.success(invalid), .success(invalid)])
        let worker = try makeWorker(queue: queue, spy: spy, clock: ManualClock(start))
        let report = await worker.deliverAvailable(deadline: start.addingTimeInterval(60))
        #expect(report.rejected == 10 && report.delivered == 10 && report.stopReason == .drained)
        let rejected = queue.events(.rejected)
        #expect(rejected.count == 10)
        #expect(rejected.allSatisfy { $0.lastError == "HTTP 400: invalid" && $0.attempts == 1 })
    }

    @Test("a 413 splits in halves until a single event, which is rejected")
    func tooLargeSplits() async throws {
        let events = DeliveryFixtures.encodedEvents(4)
        let queue = InMemoryDeliveryQueue(events: events, createdAt: start)
        let tooLarge = Result<HTTPResponse, TransportError>.success(HTTPResponse(statusCode: 413))
        // [1 2 3 4] 413 → [1 2] 413 → [1] 413 rejected, [2] 200, [3 4] 200.
        let spy = SpyTransport(responses: [tooLarge, tooLarge, tooLarge])
        let log = AttemptLog()
        let worker = try makeWorker(queue: queue, spy: spy, clock: ManualClock(start), log: log)
        let report = await worker.deliverAvailable(deadline: start.addingTimeInterval(60))
        #expect(report.requests == 5)
        #expect(report.rejected == 1 && report.delivered == 3 && report.retried == 0)
        #expect(queue.events(.rejected).map(\.event.id) == [events[0].id])
        #expect(queue.events(.rejected).first?.lastError == "too large on its own: HTTP 413")
        #expect(queue.acknowledged == [events[1].id, events[2].id, events[3].id])
        #expect(log.attempts.map(\.decision) == [
            .split(reason: "HTTP 413"), .split(reason: "HTTP 413"),
            .reject(reason: "too large on its own: HTTP 413"), .acknowledge, .acknowledge,
        ])
        let sizes = try spy.requests.map { request in
            try #require(try DeliveryFixtures.object(request.body)["batch"] as? [Any]).count
        }
        #expect(sizes == [4, 2, 1, 1, 2])
    }

    @Test("past maxAttempts a failing event is rejected, not retried")
    func maxAttempts() async throws {
        let queue = InMemoryDeliveryQueue(events: DeliveryFixtures.encodedEvents(1), createdAt: start)
        let spy = SpyTransport(responses: Array(repeating: .failure(.network("refused")), count: 3))
        let clock = ManualClock(start)
        let worker = try makeWorker(queue: queue, spy: spy, clock: clock)
        var reports: [DeliveryReport] = []
        for _ in 0..<3 {
            reports.append(await worker.deliverAvailable(deadline: clock.now.addingTimeInterval(60)))
            clock.advance(120)
        }
        #expect(reports.map(\.retried) == [1, 1, 0])
        #expect(reports.map(\.rejected) == [0, 0, 1])
        let rejected = try #require(queue.events(.rejected).first)
        #expect(rejected.attempts == 3)
        #expect(rejected.lastError == "gave up after 3 attempts: network error: refused")
    }

    @Test("a queue failure ends the round with the error; nothing is left in flight")
    func queueFailure() async throws {
        struct Broken: Error, CustomStringConvertible { var description: String { "disk I/O error" } }
        let queue = InMemoryDeliveryQueue(events: DeliveryFixtures.encodedEvents(3), createdAt: start)
        queue.failNextCalls(with: Broken())
        let worker = try makeWorker(queue: queue, spy: SpyTransport(), clock: ManualClock(start))
        let report = await worker.deliverAvailable(deadline: start.addingTimeInterval(60))
        #expect(report.stopReason == .queueError && report.hasDueEvents)
        #expect(report.lastError == "claim failed: disk I/O error")
        queue.failNextCalls(with: nil)
        #expect(queue.events(.inFlight).isEmpty && queue.events(.pending).count == 3)
    }

    @Test("a passed deadline claims nothing; a stopped worker does nothing")
    func deadlineAndStop() async throws {
        let queue = InMemoryDeliveryQueue(events: DeliveryFixtures.encodedEvents(3), createdAt: start)
        let spy = SpyTransport()
        let worker = try makeWorker(queue: queue, spy: spy, clock: ManualClock(start))
        let late = await worker.deliverAvailable(deadline: start)
        #expect(late.stopReason == .deadline && late.hasDueEvents && queue.claims == 0)
        await worker.stop()
        let stopped = await worker.deliverAvailable(deadline: start.addingTimeInterval(60))
        #expect(stopped.stopReason == .stopped && spy.requests.isEmpty)
        #expect(await worker.state == .stopped)
    }

    @Test("concurrent rounds never overlap: one request in flight")
    func oneRequestInFlight() async throws {
        let destination = SlowDestination()
        let queue = InMemoryDeliveryQueue(events: DeliveryFixtures.encodedEvents(40), createdAt: start)
        let worker = DeliveryWorker(queue: queue, destination: destination,
                                    configuration: DeliveryWorkerConfiguration(deliverySize: 3))
        let deadline = Date().addingTimeInterval(10)
        let delivered = await withTaskGroup(of: Int.self) { group in
            for _ in 0..<4 { group.addTask { await worker.deliverAvailable(deadline: deadline).delivered } }
            return await group.reduce(0, +)
        }
        #expect(delivered == 40)
        #expect(destination.maxConcurrent == 1)
        #expect(queue.storedEvents.isEmpty)
    }
}

/// A destination that takes a little time and records how many deliveries overlap.
final class SlowDestination: Destination, Sendable {
    /// Deliveries running now, and the most that ever ran at once.
    private let load = LockedValue((active: 0, peak: 0))
    let name = "slow"
    let maxBatchBytes = 1_000_000
    var maxConcurrent: Int { load.withLock { $0.peak } }

    func deliver(_ batch: [StoredEvent], sentAt: Date) async -> DeliveryResult {
        load.withLock {
            $0.active += 1
            $0.peak = max($0.peak, $0.active)
        }
        try? await Task.sleep(nanoseconds: 2_000_000)
        load.withLock { $0.active -= 1 }
        return .delivered
    }
}
