@testable import Dispatcher
@testable import DispatcherTestKit
import Foundation
import Testing
import TestSupport
import Tracking

/// When reading the retry times after an empty claim fails, the round is a queue error, not a
/// drain: the scheduler keeps its flush-interval timer and schedules a retry.
struct RetryTimesFailureTests {
    private struct ReadFailed: Error {}

    /// An in-memory queue whose ``capRetryTimes(notAfter:now:)`` throws while `failing` is set.
    private final class FailingRetryTimesQueue: DeliveryQueue {
        let inner: InMemoryDeliveryQueue
        let failing = LockedValue(true)
        let capCalls = LockedValue(0)

        init(_ inner: InMemoryDeliveryQueue) { self.inner = inner }

        func claimBatch(limit: Int, maxBytes: Int, now: Date) throws -> [StoredEvent] {
            try inner.claimBatch(limit: limit, maxBytes: maxBytes, now: now)
        }
        func acknowledge(_ ids: [UUID]) throws { try inner.acknowledge(ids) }
        func acknowledge(_ ids: [UUID], thenClaim limit: Int, maxBytes: Int, now: Date) throws -> [StoredEvent] {
            try inner.acknowledge(ids, thenClaim: limit, maxBytes: maxBytes, now: now)
        }
        func scheduleRetry(_ ids: [UUID], nextAttemptAt: Date, error: String) throws {
            try inner.scheduleRetry(ids, nextAttemptAt: nextAttemptAt, error: error)
        }
        func reject(_ ids: [UUID], reason: String) throws { try inner.reject(ids, reason: reason) }
        func release(_ ids: [UUID]) throws { try inner.release(ids) }
        func capRetryTimes(notAfter latest: Date, now: Date) throws -> Date? {
            capCalls.withLock { $0 += 1 }
            if failing.withLock({ $0 }) { throw ReadFailed() }
            return nil
        }
    }

    private func makeWorker(_ queue: FailingRetryTimesQueue) throws -> DeliveryWorker {
        let destination = try SegmentDestination(endpoint: URL(string: "https://api.example.com")!, writeKey: "k", transport: SpyTransport())
        return DeliveryWorker(queue: queue, destination: destination,
                              configuration: DeliveryWorkerConfiguration(deliverySize: 100, random: { 0.5 }))
    }


    @Test("a round whose retry-time read fails reports a queue error, not drained")
    func workerReportsQueueError() async throws {
        let queue = FailingRetryTimesQueue(InMemoryDeliveryQueue(events: DeliveryFixtures.encodedEvents(2)))
        let worker = try makeWorker(queue)
        // The deadline only bounds the round, far enough that a test process whose pool is busy
        // with other tests when this one starts does not end the round before its first batch.
        let report = await worker.deliverAvailable(deadline: Date().addingTimeInterval(60))
        #expect(queue.inner.acknowledged.count == 2, "what was due is still delivered")
        #expect(report.stopReason == .queueError)
        #expect(report.lastError?.contains("retry times") == true)
        queue.failing.withLock { $0 = false }
        #expect(await worker.deliverAvailable(deadline: Date().addingTimeInterval(60)).stopReason == .drained)
    }

    @Test("the scheduler keeps the interval timer armed and retries while the read fails")
    func schedulerKeepsTimer() async throws {
        let queue = FailingRetryTimesQueue(InMemoryDeliveryQueue(events: DeliveryFixtures.encodedEvents(2)))
        let rounds = LockedValue(0)
        let demand = DeliveryDemand(strategy: [], deliverySize: 100, initialEventsCount: 0)
        let scheduler = DeliveryScheduler(worker: try makeWorker(queue), demand: demand, flushInterval: 0.1) { _ in
            rounds.withLock { $0 += 1 }
        }
        scheduler.request(.caller(events: 2))
        #expect(await within(10) { rounds.withLock { $0 } >= 1 })
        #expect(await within(10) { !scheduler.isRunningRound })
        #expect(scheduler.isIntervalTimerArmed, "a failed read leaves the timer armed")
        #expect(await within(10) { rounds.withLock { $0 } >= 3 }, "more rounds follow while it fails")
        queue.failing.withLock { $0 = false }
        #expect(await within(10) { !scheduler.isIntervalTimerArmed }, "once the read works, a drained round disarms it")
        #expect(queue.inner.acknowledged.count == 2)
        await scheduler.close()
    }
}
