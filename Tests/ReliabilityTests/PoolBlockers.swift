import Dispatch
import Foundation
import Tracking

/// Tasks that each block a thread of Swift's cooperative pool (a semaphore wait, not an
/// `await`), the way a host's misbehaving code can, until ``release()`` or `limit` seconds.
final class PoolBlockers: Sendable {
    /// How many tasks started blocking, and how many stopped.
    private let counts = LockedValue((started: 0, finished: 0))
    /// Signalled once per change of `counts`, so a waiter re-reads them.
    private let changed = DispatchSemaphore(value: 0)
    private let gate = DispatchSemaphore(value: 0)
    /// How many tasks block.
    let count: Int

    /// Starts `count` detached tasks, each blocking its thread for at most `limit` seconds.
    init(count: Int, limit: TimeInterval) {
        self.count = count
        for _ in 0..<count {
            Task.detached { [self] in
                counts.withLock { $0.started += 1 }
                changed.signal()
                _ = gate.wait(timeout: .now() + limit)
                counts.withLock { $0.finished += 1 }
                changed.signal()
            }
        }
    }

    /// Blocks the calling thread until `count` tasks are blocking, or `timeout` seconds passed.
    /// - Returns: how many are blocking.
    func waitUntilBlocking(_ count: Int, timeout: TimeInterval) -> Int {
        let deadline = DispatchTime.now() + timeout
        var blocking: Int { counts.withLock { $0.started - $0.finished } }
        while blocking < count, changed.wait(timeout: deadline) == .success {}
        return blocking
    }

    /// Lets every task go (those not started yet go at once when they start).
    func release() {
        for _ in 0..<count { gate.signal() }
    }
}
