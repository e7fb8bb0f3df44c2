import Foundation
import Testing
import TestSupport
import Tracking
@testable import DataQuality

/// The hydrator makes each event's own context (`session.eventIndex`) in the storage of the
/// last one once that event is gone: value semantics still hold, so an event's context never
/// changes after the fact, whether its event is kept or dropped.
@Suite("Hydration reuses the last own context's storage")
struct SessionContextReuseTests {
    private func hydrator() -> ContextHydrator {
        let store = InMemoryIdentityStore()
        return ContextHydrator(application: HydrationFixtures.shop, device: HydrationFixtures.phone,
                               identity: Identity(store: store), sessions: SessionTracker(store: store))
    }

    /// The event index of `event`'s own context.
    private func index(_ event: TrackedEvent?) -> Int? {
        guard case .object(let members)? = event?.eventContext["session"], case .int(let index)? = members["eventIndex"] else { return nil }
        return index
    }

    @Test func droppedEventsEachGetTheirOwnIndex() {
        let stage = hydrator()
        // Each event is dropped before the next is made: the in-place path.
        let indexes = (0..<50).map { _ in index(stage.processed(TrackedEvent(category: "C", name: "n", action: "a"))) }
        #expect(indexes == (1...50).map { Optional($0) })
    }

    @Test func aKeptEventsContextNeverChangesAfterLaterEvents() throws {
        let stage = hydrator()
        var kept: [TrackedEvent] = []
        for round in 0..<20 {
            let event = try #require(stage.processed(TrackedEvent(category: "C", name: "n", action: "a")))
            // Every other event is kept (its context stays shared with the stage's), the others dropped.
            if round % 2 == 0 { kept.append(event) }
        }
        #expect(kept.map(index) == stride(from: 1, through: 19, by: 2).map { Optional($0) })
        #expect(kept.allSatisfy { $0.eventContext.count == 1 })
    }

    @Test func concurrentSendersEachGetADistinctIndex() async {
        let stage = hydrator()
        let indexes = await withTaskGroup(of: [Int].self) { group in
            for _ in 0..<4 {
                group.addTask { (0..<250).compactMap { _ in self.index(stage.processed(TrackedEvent(category: "C", name: "n", action: "a"))) } }
            }
            return await group.reduce(into: [Int]()) { $0 += $1 }
        }
        #expect(indexes.count == 1_000)
        #expect(Set(indexes) == Set(1...1_000))
    }
}
