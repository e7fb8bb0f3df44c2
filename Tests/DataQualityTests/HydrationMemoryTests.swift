@testable import DataQuality
import Foundation
import Testing
import Tracking

/// The hydrator's memory finds the session's shared context and makes the usual event's own
/// context under one lock; a reset made while a shared context was being made keeps it out.
@Suite("Hydration's memory")
struct HydrationMemoryTests {
    private let key = SharedContextKey(installationID: UUID(), userID: "u1", sessionID: UUID())

    private func index(_ own: UserData?) -> Int? {
        guard case .object(let members)? = own?["session"], case .int(let index)? = members["eventIndex"] else { return nil }
        return index
    }

    @Test func aKeptSharedContextIsFoundWithTheOwnContextOfTheIndexAskedFor() {
        let memory = HydrationMemory()
        let missed = memory.lookUp(key, eventIndex: 1)
        #expect(missed.shared == nil && missed.own == nil, "nothing kept yet: no own context made either")
        let shared = SharedContext(["app": .string("shop")])
        memory.keep(shared, for: key, madeIn: missed.generation)
        let found = memory.lookUp(key, eventIndex: 7)
        #expect(found.shared === shared)
        #expect(index(found.own) == 7 && found.own?.count == 1)
        #expect(memory.lookUp(key, eventIndex: nil).own == nil, "no index asked for, none made")
        var other = key
        other.userID = "u2"
        #expect(memory.lookUp(other, eventIndex: 8).shared == nil, "another user's key finds nothing")
    }

    @Test func aSessionLookupFindsTheKeptContextOfThatSessionOnlyUntilAReset() {
        let memory = HydrationMemory()
        let missed = memory.lookUp(sessionID: key.sessionID, eventIndex: 1)
        #expect(missed.shared == nil && missed.own == nil)
        let shared = SharedContext(["app": .string("shop")])
        memory.keep(shared, for: key, madeIn: missed.generation)
        let found = memory.lookUp(sessionID: key.sessionID, eventIndex: 3)
        #expect(found.shared === shared && index(found.own) == 3)
        #expect(memory.lookUp(sessionID: UUID(), eventIndex: 4).shared == nil, "another session finds nothing")
        #expect(memory.lookUp(sessionID: nil, eventIndex: nil).shared == nil, "no session is another key too")
        memory.reset()
        #expect(memory.lookUp(sessionID: key.sessionID, eventIndex: 5).shared == nil, "a reset (an identity change) forgets it")
    }

    @Test func aResetForgetsAndKeepsOutWhatWasMadeAcrossIt() {
        let memory = HydrationMemory()
        let before = memory.lookUp(key, eventIndex: nil)
        memory.reset()
        memory.keep(SharedContext([:]), for: key, madeIn: before.generation)
        #expect(memory.lookUp(key, eventIndex: nil).shared == nil, "made across a reset: not kept")
        let after = memory.lookUp(key, eventIndex: nil)
        memory.keep(SharedContext([:]), for: key, madeIn: after.generation)
        #expect(memory.lookUp(key, eventIndex: nil).shared != nil)
        memory.reset()
        #expect(memory.lookUp(key, eventIndex: nil).shared == nil)
    }

    @Test func ownContextsHandedOutNeverChangeAfterwards() {
        let memory = HydrationMemory()
        memory.keep(SharedContext([:]), for: key, madeIn: memory.lookUp(key, eventIndex: nil).generation)
        let kept = (1...20).compactMap { memory.lookUp(key, eventIndex: $0).own }
        #expect(kept.map(index) == (1...20).map { Optional($0) })
    }
}
