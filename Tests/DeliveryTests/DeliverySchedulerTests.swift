@testable import Dispatcher
@testable import DispatcherTestKit
import Foundation
import Testing
import TestSupport
import Tracking

/// ``DeliveryScheduler/request(_:)``: the one place that decides whether a reason calls for a
/// delivery round, and whether the round runs now or is owed.
struct DeliverySchedulerTests {
    /// A scheduler over `events` in memory, delivering to a Segment destination through `spy`.
    func makeScheduler(_ events: [EncodedEvent], spy: SpyTransport, demand: DeliveryDemand) throws -> (DeliveryScheduler, InMemoryDeliveryQueue) {
        let queue = InMemoryDeliveryQueue(events: events)
        let destination = try SegmentDestination(endpoint: URL(string: "https://api.example.com")!, writeKey: "k", transport: spy)
        let worker = DeliveryWorker(queue: queue, destination: destination,
                                    configuration: DeliveryWorkerConfiguration(deliverySize: 100, random: { 0.5 }))
        return (DeliveryScheduler(worker: worker, demand: demand, flushInterval: 0, onReport: { _ in }), queue)
    }

    /// Polls `condition` every 20 ms for at most `timeout` seconds.

    @Test("committed events: the run's first ones and each full batch call for a round, the rest do not")
    func committedDecisions() {
        var demand = DeliveryDemand(strategy: [.initialEvents], deliverySize: 10, initialEventsCount: 2)
        let answers = [1, 1, 1, 6, 1, 9].map { demand.admits(.committed($0)) }
        // The run's first two events; then 1, 7 and 9 since the last full batch; 10; then 9 of a new one.
        #expect(answers == [true, true, false, false, true, false])
        let replayed = demand.admits(.replayed(5))
        #expect(!replayed, "replayed events count (here they complete a batch) but never ask by themselves")
        #expect(demand.pendingSinceFullBatch == 0 && demand.persistedSoFar == 24)
        let full = demand.admits(.committed(0))
        #expect(!full, "nothing committed asks for nothing")
        var noInitial = DeliveryDemand(strategy: [], deliverySize: 10, initialEventsCount: 2)
        let first = noInitial.admits(.committed(1))
        #expect(!first, "initial events only with their strategy")
    }

    @Test("lifecycle, opening, timer and callers: each decided by the strategy or by what is deliverable")
    func otherDecisions() {
        var all = DeliveryDemand(strategy: .all, deliverySize: 10, initialEventsCount: 0)
        var none = DeliveryDemand(strategy: [], deliverySize: 10, initialEventsCount: 0)
        let reasons: [DeliveryRequest] = [
            .lifecycle(.willEnterForeground), .lifecycle(.didEnterBackground), .lifecycle(.reachable), .lifecycle(.unreachable),
            .opened(pending: 3), .opened(pending: 0), .timer, .caller(events: 1), .caller(events: 0),
        ]
        let withAll = reasons.map { all.admits($0) }
        let withNone = reasons.map { none.admits($0) }
        #expect(withAll == [true, true, true, false, true, false, true, true, false])
        #expect(withNone == [false, false, false, false, false, false, true, true, false])
    }

    @Test("request: less than a batch delivers nothing; a full batch delivers; while paused it is owed until resume")
    func requestRunsOrOwesRounds() async throws {
        let spy = SpyTransport()
        let events = DeliveryFixtures.encodedEvents(10)
        let (scheduler, queue) = try makeScheduler(events, spy: spy,
                                                   demand: DeliveryDemand(strategy: [], deliverySize: 10, initialEventsCount: 0))
        #expect(!scheduler.request(.committed(4)))
        try await Task.sleep(nanoseconds: 200_000_000)
        #expect(spy.requests.isEmpty, "4 of 10: no round")
        scheduler.pause()
        #expect(scheduler.request(.committed(6)), "10 of 10 calls for a round")
        try await Task.sleep(nanoseconds: 200_000_000)
        #expect(spy.requests.isEmpty, "paused: the round is owed, not run")
        scheduler.resume()
        #expect(await within(10) { queue.acknowledged.count == 10 }, "resume runs the owed round")
        await scheduler.close()
    }

    @Test("request: the run's first event is delivered at once; unreachable defers rounds")
    func initialEventsAndReachability() async throws {
        let spy = SpyTransport()
        let (scheduler, queue) = try makeScheduler(DeliveryFixtures.encodedEvents(1), spy: spy,
                                                   demand: DeliveryDemand(strategy: [.initialEvents, .reachabilityPings],
                                                                          deliverySize: 100, initialEventsCount: 1))
        scheduler.request(.lifecycle(.unreachable))
        #expect(scheduler.request(.committed(1)))
        try await Task.sleep(nanoseconds: 200_000_000)
        #expect(spy.requests.isEmpty, "unreachable: owed")
        #expect(scheduler.request(.lifecycle(.reachable)))
        #expect(await within(10) { queue.acknowledged.count == 1 })
        #expect(scheduler.demand.persistedSoFar == 1)
        await scheduler.close()
    }
}
