import Foundation
import Testing
import TestSupport
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

@Suite struct LockedValueWaitTests {
    @Test func aWaiterIsWokenByAChange() {
        let flag = LockedValue(false)
        let result = LockedValue<(ready: Bool, waited: TimeInterval)?>(nil)
        let started = Date()
        let waiter = onNewThread {
            let ready = flag.wait(until: { $0 }, deadline: Date(timeIntervalSinceNow: 30))
            result.withLock { $0 = (ready, Date().timeIntervalSince(started)) }
        }
        Thread.sleep(forTimeInterval: 0.05)
        flag.withLockWakingWaiters { $0 = true }
        #expect(waiter.wait(timeout: .now() + 30) == .success)
        let outcome = result.withLock { $0 }
        #expect(outcome?.ready == true)
        #expect((outcome?.waited ?? 30) < 10, "woken by the change, not by the deadline")
    }

    @Test func wakeWaitersWakesAWaiterAfterAChangeMadeWithWithLock() {
        let flag = LockedValue(false)
        let waited = LockedValue<TimeInterval?>(nil)
        let started = Date()
        let waiter = onNewThread {
            let ready = flag.wait(until: { $0 }, deadline: Date(timeIntervalSinceNow: 30))
            waited.withLock { $0 = ready ? Date().timeIntervalSince(started) : nil }
        }
        Thread.sleep(forTimeInterval: 0.05)
        let wake = flag.withLock { value -> Bool in
            value = true
            return true
        }
        if wake { flag.wakeWaiters() }
        #expect(waiter.wait(timeout: .now() + 30) == .success)
        #expect((waited.withLock { $0 } ?? 30) < 10)
    }

    @Test func aWaitGivesUpAtItsDeadline() {
        let value = LockedValue(0)
        let start = Date()
        let ready = value.wait(until: { $0 > 0 }, deadline: Date(timeIntervalSinceNow: 0.1))
        #expect(!ready)
        #expect(Date().timeIntervalSince(start) >= 0.09)
    }

    @Test func aPastDeadlineStillReportsAReadyValue() {
        let value = LockedValue(3)
        #expect(value.wait(until: { $0 == 3 }, deadline: .distantPast))
        #expect(!value.wait(until: { $0 == 4 }, deadline: .distantPast))
    }

    @Test func theBodySeesWhatThePredicateSawUnderTheSameLock() {
        let value = LockedValue(1)
        let seen = value.withLock(when: { $0 == 1 }) { value, ready -> (Int, Bool) in
            value += 1
            return (value, ready)
        }
        #expect(seen == (2, true))
        let late = value.withLock(when: { $0 == 1 }, deadline: Date(timeIntervalSinceNow: 0.01)) { value, ready in (value, ready) }
        #expect(late == (2, false))
    }

    @Test func waitersAreWokenWhenTheBodyThrows() {
        struct Refused: Error {}
        let value = LockedValue(0)
        let woken = LockedValue(false)
        let waiter = onNewThread {
            let ready = value.wait(until: { $0 == 1 }, deadline: Date(timeIntervalSinceNow: 30))
            woken.withLock { $0 = ready }
        }
        Thread.sleep(forTimeInterval: 0.05)
        #expect(throws: Refused.self) {
            try value.withLockWakingWaiters { value in
                value = 1
                throw Refused()
            }
        }
        #expect(waiter.wait(timeout: .now() + 30) == .success)
        #expect(woken.withLock { $0 })
    }

    /// Two threads take turns through one value 5,000 times each: a wake-up lost between a
    /// predicate check and the wait would leave one waiting until its deadline.
    @Test func noWakeUpIsLostWhenChangesRaceTheWaits() {
        let turn = LockedValue(0)
        let rounds = 5_000
        let timedOut = LockedValue(0)
        let start = Date()
        let players = (0..<2).map { player in
            onNewThread {
                for round in 0..<rounds {
                    let mine = round * 2 + player
                    guard turn.wait(until: { $0 >= mine }, deadline: Date(timeIntervalSinceNow: 10)) else {
                        timedOut.withLock { $0 += 1 }
                        return
                    }
                    turn.withLockWakingWaiters { $0 += 1 }
                }
            }
        }
        for player in players { #expect(player.wait(timeout: .now() + 60) == .success) }
        #expect(timedOut.withLock { $0 } == 0)
        #expect(turn.withLock { $0 } == rounds * 2)
        #expect(Date().timeIntervalSince(start) < 30)
    }
}
