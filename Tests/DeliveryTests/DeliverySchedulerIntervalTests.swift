@testable import Dispatcher
@testable import DispatcherTestKit
import Foundation
import Testing
import TestSupport
import Tracking

/// The flush-interval timer runs only while events are pending: armed by a request that reports
/// some, disarmed by a round that leaves none.
struct DeliverySchedulerIntervalTests {
    /// Counts the rounds a scheduler reports.
    private final class Rounds: Sendable {
        let count = LockedValue(0)
    }

    /// A scheduler over `events` in memory with a 0.1 s flush interval, no batch or lifecycle
    /// moment calling for a round: only the timer delivers.
    private func makeScheduler(_ events: [EncodedEvent], rounds: Rounds) throws -> (DeliveryScheduler, InMemoryDeliveryQueue) {
        let queue = InMemoryDeliveryQueue(events: events)
        let destination = try SegmentDestination(endpoint: URL(string: "https://api.example.com")!, writeKey: "k", transport: SpyTransport())
        let worker = DeliveryWorker(queue: queue, destination: destination,
                                    configuration: DeliveryWorkerConfiguration(deliverySize: 100, random: { 0.5 }))
        let demand = DeliveryDemand(strategy: [], deliverySize: 100, initialEventsCount: 0)
        let scheduler = DeliveryScheduler(worker: worker, demand: demand, flushInterval: 0.1) { _ in rounds.count.withLock { $0 += 1 } }
        return (scheduler, queue)
    }


    @Test("nothing pending: no timer, no round; a pending event is delivered by the timer, which then stops")
    func timerOnlyWhilePending() async throws {
        let rounds = Rounds()
        let (scheduler, queue) = try makeScheduler(DeliveryFixtures.encodedEvents(3), rounds: rounds)
        #expect(!scheduler.isIntervalTimerArmed, "nothing reported pending yet")
        try await Task.sleep(nanoseconds: 500_000_000)
        #expect(rounds.count.withLock { $0 } == 0, "5 intervals with nothing pending: no round")

        #expect(!scheduler.request(.committed(3)), "3 of a batch of 100 call for no round")
        #expect(scheduler.isIntervalTimerArmed)
        #expect(await within(10) { queue.acknowledged.count == 3 }, "the timer delivers what is pending")
        #expect(await within(10) { !scheduler.isIntervalTimerArmed }, "a round that leaves nothing disarms it")
        // A firing that came while the last round ran is owed one more round: let it pass.
        #expect(await within(10) { !scheduler.isRunningRound })
        let settled = rounds.count.withLock { $0 }
        try await Task.sleep(nanoseconds: 500_000_000)
        #expect(rounds.count.withLock { $0 } == settled, "idle again: no round for 5 intervals")
        await scheduler.close()
    }

    @Test("requests that report no pending events do not arm the timer; closing disarms it and arming stops")
    func onlyPendingReportsArm() async throws {
        let (scheduler, _) = try makeScheduler([], rounds: Rounds())
        for reason: DeliveryRequest in [.committed(0), .replayed(0), .opened(pending: 0), .caller(events: 0),
                                        .lifecycle(.willEnterForeground), .lifecycle(.reachable)] {
            scheduler.request(reason)
            #expect(!scheduler.isIntervalTimerArmed, "\(reason)")
        }
        for reason: DeliveryRequest in [.replayed(2), .opened(pending: 2), .caller(events: 2)] {
            #expect(reason.reportsPendingEvents, "\(reason)")
        }
        scheduler.request(.opened(pending: 5))
        #expect(scheduler.isIntervalTimerArmed)
        await scheduler.close()
        #expect(!scheduler.isIntervalTimerArmed, "closing cancels it")
        scheduler.request(.committed(1))
        #expect(!scheduler.isIntervalTimerArmed, "a closed scheduler arms none")
    }

    @Test("an explicit round that drains everything disarms the timer")
    func explicitRoundDisarms() async throws {
        let (scheduler, queue) = try makeScheduler(DeliveryFixtures.encodedEvents(2), rounds: Rounds())
        scheduler.request(.caller(events: 2))
        _ = await scheduler.deliverNow(deadline: Date().addingTimeInterval(10))
        #expect(queue.acknowledged.count == 2)
        #expect(await within(10) { !scheduler.isIntervalTimerArmed })
        await scheduler.close()
    }
}
