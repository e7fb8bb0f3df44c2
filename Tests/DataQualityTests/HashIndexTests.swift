import Testing
@testable import DataQuality

@Suite("Hash index")
struct HashIndexTests {
    @Test func findsWhatWasFiledAndNothingElse() {
        var index = HashIndex(capacity: 100)
        for position in 0..<100 {
            let filed = index.insert(position, hash: UInt64(position) &* 7919)
            #expect(filed)
        }
        #expect(index.count == 100)
        for position in 0..<100 {
            #expect(index.position(of: UInt64(position) &* 7919) { _ in true } == position)
        }
        #expect(index.position(of: 1) { _ in true } == nil)
    }

    @Test func asksWhichOfSeveralPositionsUnderOneHash() {
        var index = HashIndex(capacity: 4)
        index.insert(0, hash: 42)
        index.insert(1, hash: 42)
        index.insert(2, hash: 42)
        #expect(index.position(of: 42) { $0 == 1 } == 1)
        #expect(index.position(of: 42) { $0 == 2 } == 2)
        #expect(index.position(of: 42) { $0 == 3 } == nil)
        index.remove(1, hash: 42)
        #expect(index.position(of: 42) { $0 == 1 } == nil)
        #expect(index.position(of: 42) { $0 == 0 } == 0)
        #expect(index.position(of: 42) { $0 == 2 } == 2)
    }

    @Test func refusesMoreThanItsCapacity() {
        var index = HashIndex(capacity: 3)
        for position in 0..<3 {
            let filed = index.insert(position, hash: UInt64(position))
            #expect(filed)
        }
        let overflowed = index.insert(3, hash: 3)
        #expect(!overflowed)
        #expect(index.position(of: 3) { _ in true } == nil)
        index.remove(0, hash: 0)
        let refiled = index.insert(3, hash: 3)
        #expect(refiled)
        #expect(index.position(of: 3) { _ in true } == 3)
    }

    @Test func removingFromTheMiddleOfARunThatWrapsAroundKeepsTheRestFindable() {
        // Hashes that all want the same home slot make one long run. With 64 positions the
        // table has 256 slots, and hash 21's home is slot 250: its run of 40 wraps around to
        // the table's start.
        var index = HashIndex(capacity: 64)
        let collide: [UInt64] = Array(repeating: 21, count: 40)
        for (position, hash) in collide.enumerated() { index.insert(position, hash: hash) }
        for position in stride(from: 1, to: 40, by: 3) { index.remove(position, hash: 21) }
        for position in 0..<40 {
            let found = index.position(of: 21) { $0 == position }
            #expect(found == (position % 3 == 1 ? nil : position), "\(position)")
        }
        #expect(index.count == 40 - 13)
    }

    @Test func staysCorrectUnderManyInsertsAndRemovesAgainstASet() {
        var index = HashIndex(capacity: 50)
        var filed: [Int: UInt64] = [:]
        var generator = SystemRandomNumberGenerator()
        for step in 0..<20_000 {
            // Few distinct hashes, so that runs collide, wrap and shift back often.
            let hash = UInt64.random(in: 0..<40, using: &generator) << 58
            if filed.count == 50 || (!filed.isEmpty && Bool.random(using: &generator)) {
                let (position, filedHash) = filed.randomElement(using: &generator)!
                index.remove(position, hash: filedHash)
                filed[position] = nil
            } else {
                let position = step
                let inserted = index.insert(position, hash: hash)
                #expect(inserted)
                filed[position] = hash
            }
            if step % 97 == 0 {
                for (position, filedHash) in filed {
                    #expect(index.position(of: filedHash) { $0 == position } == position)
                }
                #expect(index.count == filed.count)
            }
        }
    }
}
