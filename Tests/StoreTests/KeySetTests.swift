@testable import Dispatcher
import Foundation
import TestSupport
import Testing

@Suite struct KeySetTests {
    @Test func insertReportsNewKeysAndContainsFindsThem() {
        var set = KeySet()
        #expect(set.isEmpty)
        let results = [set.insert(42), set.insert(42), set.insert(0), set.insert(0), set.insert(.max)]
        #expect(results == [true, false, true, false, true])
        #expect(set.count == 3)
        #expect(set.contains(42) && set.contains(0) && set.contains(.max))
        #expect(!set.contains(41) && !set.contains(1))
    }

    @Test func keysThatDifferOnlyInTheirLowOrHighBitsGrowTheSetBeyondItsCapacity() {
        var set = KeySet(minimumCapacity: 4)
        let low = (0..<5_000).map { UInt64($0) }
        let high = (1..<5_000).map { UInt64($0) << 48 }
        let inserted = (low + high).filter { set.insert($0) }
        #expect(inserted == low + high)
        #expect(set.count == low.count + high.count)
        for key in low + high { #expect(set.contains(key)) }
        #expect(!set.contains(5_000) && !set.contains(5_000 << 48) && !set.contains(1 << 47))
    }

    @Test func behavesLikeSetUnderRandomOperations() {
        var random = SeededGenerator(seed: 7)
        var set = KeySet(minimumCapacity: 64)
        var reference = Set<UInt64>()
        for round in 0..<20_000 {
            // A small key space, so that repeats and misses both happen often.
            let key = random.next() % 3_000 == 0 ? 0 : random.next() % 9_000 &* 0xD6E8_FEB8_6659_FD93
            if random.next() % 3 == 0 {
                #expect(set.contains(key) == reference.contains(key), "round \(round)")
            } else {
                let inserted = set.insert(key)
                #expect(inserted == reference.insert(key).inserted, "round \(round)")
            }
            #expect(set.count == reference.count)
        }
        var listed = Set<UInt64>()
        set.forEach { listed.insert($0) }
        #expect(listed == reference)
    }

    @Test func removeAllEmptiesTheSetWithOrWithoutItsCapacity() {
        for keepingCapacity in [true, false] {
            var set: KeySet = [0, 1, 2, 3]
            set.removeAll(keepingCapacity: keepingCapacity)
            #expect(set.isEmpty && set.count == 0)
            #expect(!set.contains(0) && !set.contains(2))
            let inserted = set.insert(2)
            #expect(inserted && set.count == 1)
        }
    }

    @Test func warmingChangesNothingInTheSet() {
        var set: KeySet = [0, 5, 1 << 40]
        set.warm([0, 5, 6, 1 << 40, .max])
        set.warm([])
        #expect(set.count == 3)
        #expect(set.contains(0) && set.contains(5) && set.contains(1 << 40))
        #expect(!set.contains(6) && !set.contains(.max))
    }

    @Test func formUnionAddsTheOtherSetsKeys() {
        var set: KeySet = [1, 2]
        set.formUnion([2, 3, 0])
        #expect(set.count == 4)
        for key: UInt64 in [0, 1, 2, 3] { #expect(set.contains(key)) }
    }

    @Test func theStoreIgnoresDuplicatesWithinItsWindowAndForgetsThemPastTwoGenerations() throws {
        let folder = try TemporaryDirectory(prefix: "StoreTests")
        defer { folder.remove() }
        let store = try EventStore(path: folder.file("store.sqlite").path)
        let first = sampleEvent(0)
        try store.insert([first])
        // Within the window: ignored and reported, also when repeated inside one group.
        let fresh = sampleEvent(1)
        let repeated = try store.insert([first, fresh, fresh])
        #expect(repeated.inserted == 1 && repeated.duplicates == [first.id, fresh.id])
        // Two whole generations later, the first id is forgotten and stored again.
        let filler = (0..<(2 * EventStore.duplicateWindow + 1)).map { _ in
            EncodedEvent(id: UUID(), timestampMilliseconds: 0, category: "c", name: "n", action: "a",
                         userDataBlob: EncodedEvent.emptyObject, contextBlob: EncodedEvent.emptyObject,
                         flagsBlob: EncodedEvent.emptyArray)
        }
        for start in stride(from: 0, to: filler.count, by: 1_000) {
            #expect(try store.insert(filler[start..<min(filler.count, start + 1_000)]).duplicates.isEmpty)
        }
        #expect(try store.insert([first]).inserted == 1)
        // The last group is still in the window.
        #expect(try store.insert([filler[filler.count - 1]]).duplicates == [filler[filler.count - 1].id])
    }
}
