import Testing
@testable import DataQuality

@Suite("Indexed ring")
struct IndexedRingTests {
    @Test func findsEntriesByKeyAndComparesThem() {
        var ring = IndexedRing<String>(capacity: 3)
        ring.append("a", key: 1)
        ring.append("b", key: 1)
        let b = ring.position(of: 1) { $0 == "b" }
        #expect(b.map { ring[$0] } == "b")
        #expect(ring.position(of: 1) { $0 == "c" } == nil)
        #expect(ring.position(of: 2) { _ in true } == nil)
    }

    @Test func forgetsTheOldestFirstWhenFull() {
        var ring = IndexedRing<Int>(capacity: 3)
        for value in 0..<5 { ring.append(value, key: UInt64(value)) }
        #expect(ring.count == 3)
        #expect(ring.position(of: 0) { _ in true } == nil)
        #expect(ring.position(of: 1) { _ in true } == nil)
        for value in 2..<5 { #expect(ring.position(of: UInt64(value)) { _ in true }.map { ring[$0] } == value) }
    }

    @Test func replacingAnEntryKeepsItsPlaceInTheOrder() {
        var ring = IndexedRing<String>(capacity: 2)
        ring.append("first", key: 1)
        ring.append("second", key: 2)
        if let position = ring.position(of: 1, where: { _ in true }) { ring[position] = "first again" }
        ring.append("third", key: 3)
        // The replaced entry was still the oldest: it is the one forgotten.
        #expect(ring.position(of: 1) { _ in true } == nil)
        #expect(ring.position(of: 2) { _ in true }.map { ring[$0] } == "second")
        #expect(ring.position(of: 3) { _ in true }.map { ring[$0] } == "third")
    }

    @Test func aRingOfOneKeepsTheLatest() {
        var ring = IndexedRing<Int>(capacity: 0)
        ring.append(1, key: 1)
        ring.append(2, key: 2)
        #expect(ring.capacity == 1)
        #expect(ring.position(of: 1) { _ in true } == nil)
        #expect(ring.position(of: 2) { _ in true }.map { ring[$0] } == 2)
    }
}
