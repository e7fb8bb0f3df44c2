import Foundation
import Testing
import Tracking

@Suite struct LockedValueTests {
    @Test func concurrentUpdatesAreNeverLost() async {
        let counter = LockedValue(0)
        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<8 {
                group.addTask { for _ in 0..<10_000 { counter.withLock { $0 += 1 } } }
            }
        }
        #expect(counter.withLock { $0 } == 80_000)
    }

    @Test func withLockReturnsWhatTheBodyReturnsAndRethrows() {
        struct Refused: Error {}
        let names = LockedValue(["a"])
        let count = names.withLock { names -> Int in names.append("b"); return names.count }
        #expect(count == 2)
        #expect(throws: Refused.self) { try names.withLock { _ in throw Refused() } }
        #expect(names.withLock { $0 } == ["a", "b"])
    }
}
