@testable import Dispatcher
import Foundation
import Testing
import Tracking

/// The shared-state types keep their state in `LockedValue` and are `Sendable` without
/// `@unchecked`: these tests pin the behaviour that conversion must keep.
@Suite("Shared state behind LockedValue")
struct LockedStateTests {
    private final class Target: Sendable {}

    /// Compiles only for `Sendable` types.
    private static func sendable<Value: Sendable>(_: Value.Type) {}

    @Test("The converted types are Sendable")
    func sendableTypes() {
        Self.sendable(EventStore.self)
        Self.sendable(EventStore.State.self)
        Self.sendable(TransportCompletion.self)
        Self.sendable(TimedWait.self)
        Self.sendable(ResumeOnce<Int>.self)
        Self.sendable(WallClockWitness.self)
        Self.sendable(EventTimeline.self)
        Self.sendable(StoreLock.self)
        Self.sendable(WeakBox<Target>.self)
    }

    @Test("WeakBox holds its value weakly: it empties when the last strong reference goes")
    func weakBoxIsWeak() {
        let box = WeakBox<Target>()
        var target: Target? = Target()
        box.value = target
        #expect(box.value === target)
        target = nil
        #expect(box.value == nil)
    }

    @Test("TransportCompletion keeps the first result, from whichever thread decides it")
    func completionDecidesOnce() async {
        let completion = TransportCompletion()
        let decided = LockedCounter()
        await withTaskGroup(of: Void.self) { group in
            for status in 200..<216 {
                group.addTask {
                    if completion.finish(.success(HTTPResponse(statusCode: status, headers: [:], body: Data()))) { decided.increment() }
                }
            }
        }
        #expect(decided.value == 1)
        let result = await completion.wait(seconds: 5, expired: {}, cancelled: {})
        #expect((try? result.get().statusCode).map { (200..<216).contains($0) } == true)
    }

    @Test("TimedWait interrupted before it starts returns at once")
    func timedWaitInterruptedEarly() async {
        let wait = TimedWait()
        wait.interrupt()
        let start = Date()
        await wait.wait(seconds: 30)
        #expect(Date().timeIntervalSince(start) < 5)
    }
}

/// A counter several tasks bump.
private final class LockedCounter: Sendable {
    private let count = LockedValue(0)
    func increment() { count.withLock { $0 += 1 } }
    var value: Int { count.withLock { $0 } }
}
