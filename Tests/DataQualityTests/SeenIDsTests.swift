import Foundation
import Testing
@testable import DataQuality
@testable import Tracking

/// ``SeenIDs`` held by reference, so that `#expect` can call it.
private final class Memory {
    private var ids: SeenIDs
    init(capacity: Int) { ids = SeenIDs(capacity: capacity) }
    /// Whether `id` repeats one remembered (remembering it when not).
    func repeats(_ id: SeenID) -> Bool { ids.checkAndRemember(id) }
    var isOrdered: Bool { ids.isOrdered }
}

@Suite("Seen ids")
struct SeenIDsTests {
    /// An id whose bytes order as `rank` does, then `random`.
    private func id(_ rank: UInt64, random: UInt64 = 0x8000_0000_0000_0001) -> SeenID {
        var bytes = [UInt8](repeating: 0, count: 16)
        for index in 0..<8 {
            bytes[index] = UInt8(truncatingIfNeeded: rank >> (56 - 8 * UInt64(index)))
            bytes[8 + index] = UInt8(truncatingIfNeeded: random >> (56 - 8 * UInt64(index)))
        }
        let uuid = bytes.withUnsafeBytes { $0.loadUnaligned(as: uuid_t.self) }
        return SeenID(UUID(uuid: uuid))
    }

    @Test func precedesFollowsTheOrderOfTheBytes() {
        #expect(id(1).precedes(id(2)))
        #expect(!id(2).precedes(id(1)))
        #expect(!id(2).precedes(id(2)))
        #expect(id(0x0100).precedes(id(0x0200)))
        #expect(id(5, random: 1).precedes(id(5, random: 2)))
    }

    @Test func risingIdsStayOrderedAndRepeatsAreFoundByBinarySearch() {
        let memory = Memory(capacity: 5)
        for rank: UInt64 in 1...4 { #expect(!memory.repeats(id(rank))) }
        for rank: UInt64 in 1...4 { #expect(memory.repeats(id(rank)), "rank \(rank)") }
        #expect(memory.isOrdered)
    }

    @Test func aFullRingForgetsTheOldestAndStillFindsTheRestAcrossTheWrap() {
        let memory = Memory(capacity: 3)
        for rank: UInt64 in 1...7 { #expect(!memory.repeats(id(rank))) }
        // Remembered: 5, 6, 7, stored across the ring's wrap.
        for rank: UInt64 in 5...7 { #expect(memory.repeats(id(rank)), "rank \(rank)") }
        #expect(memory.isOrdered)
        // 4 was forgotten: new again, and out of order, so the ids are indexed from now on.
        #expect(!memory.repeats(id(4)))
        #expect(!memory.isOrdered)
        // Remembered now: 6, 7, 4 (5, the oldest, was forgotten for 4).
        #expect(!memory.repeats(id(5)))
        // Remembered now: 7, 4, 5.
        #expect(memory.repeats(id(7)))
        #expect(memory.repeats(id(4)))
        #expect(!memory.repeats(id(6)))
    }

    @Test func anIdOutOfOrderKeepsItsPlaceInTheOrderOfForgetting() {
        let memory = Memory(capacity: 3)
        #expect(!memory.repeats(id(10)))
        #expect(!memory.repeats(id(30)))
        #expect(!memory.repeats(id(20)))
        #expect(!memory.isOrdered)
        for rank: UInt64 in [10, 30, 20] { #expect(memory.repeats(id(rank)), "rank \(rank)") }
        // Seen in the order 10, 30, 20: a fourth id forgets 10 first, whatever the ranks.
        #expect(!memory.repeats(id(40)))
        #expect(!memory.repeats(id(10)))
        #expect(memory.repeats(id(20)))
        #expect(memory.repeats(id(40)))
    }

    @Test func idsThatShareTheirRandomHalfAreToldApart() {
        let memory = Memory(capacity: 4)
        #expect(!memory.repeats(id(1, random: 9)))
        #expect(!memory.repeats(id(3, random: 9)))
        #expect(!memory.repeats(id(2, random: 9)))
        #expect(memory.repeats(id(3, random: 9)))
        #expect(!memory.repeats(id(4, random: 9)))
    }

    @Test func idsFromTheGeneratorKeepTheOrder() {
        let memory = Memory(capacity: 100)
        let made = (0..<1_000).map { _ in SeenID(EventID.make()) }
        for seen in made { #expect(!memory.repeats(seen)) }
        #expect(memory.isOrdered)
        #expect(memory.repeats(made[950]))
        #expect(!memory.repeats(made[10]))
    }
}
