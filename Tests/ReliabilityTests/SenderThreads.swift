import Foundation
import Tracking

/// Runs work on several real threads at once and waits for all of them without blocking Swift's
/// cooperative pool.
enum SenderThreads {
    /// Runs `body(thread)` on `count` new threads, started together; returns every result once
    /// all finished, in thread order.
    static func run<Result: Sendable>(_ count: Int, _ body: @escaping @Sendable (Int) -> Result) async -> [Result] {
        let results = ResultSlots<Result>(count: count)
        let group = DispatchGroup()
        let start = DispatchSemaphore(value: 0)
        for index in 0..<count {
            group.enter()
            let thread = Thread {
                start.wait()
                results.set(index, body(index))
                group.leave()
            }
            thread.name = "reliability.sender.\(index)"
            thread.start()
        }
        for _ in 0..<count { start.signal() }
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            group.notify(queue: .global()) { continuation.resume() }
        }
        return results.values
    }
}

/// One result per thread, filled in under a lock.
private final class ResultSlots<Result: Sendable>: Sendable {
    private let slots: LockedValue<[Result?]>

    init(count: Int) { slots = LockedValue(Array(repeating: nil, count: count)) }

    func set(_ index: Int, _ value: Result) { slots.withLock { $0[index] = value } }

    var values: [Result] { slots.withLock { $0.compactMap { $0 } } }
}

/// A flag one task sets and another reads.
final class StopFlag: Sendable {
    private let raised = LockedValue(false)

    func raise() { raised.withLock { $0 = true } }

    var isRaised: Bool { raised.withLock { $0 } }
}
