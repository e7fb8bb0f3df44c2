import Foundation

/// Tasks that each block a thread of Swift's cooperative pool (a semaphore wait, not an
/// `await`), the way a host's misbehaving code can, until ``release()`` or `limit` seconds.
final class PoolBlockers: @unchecked Sendable {
    // Safe: `started` and `finished` are only touched while holding `condition`; `gate` is a
    // thread-safe semaphore.
    private let condition = NSCondition()
    private let gate = DispatchSemaphore(value: 0)
    private var started = 0
    private var finished = 0
    /// How many tasks block.
    let count: Int

    /// Starts `count` detached tasks, each blocking its thread for at most `limit` seconds.
    init(count: Int, limit: TimeInterval) {
        self.count = count
        for _ in 0..<count {
            Task.detached { [self] in
                condition.withLock {
                    started += 1
                    condition.broadcast()
                }
                _ = gate.wait(timeout: .now() + limit)
                condition.withLock {
                    finished += 1
                    condition.broadcast()
                }
            }
        }
    }

    /// Blocks the calling thread until `count` tasks are blocking, or `timeout` seconds passed.
    /// - Returns: how many are blocking.
    func waitUntilBlocking(_ count: Int, timeout: TimeInterval) -> Int {
        let deadline = Date().addingTimeInterval(timeout)
        return condition.withLock {
            while started - finished < count, condition.wait(until: deadline) {}
            return started - finished
        }
    }

    /// Lets every task go (those not started yet go at once when they start).
    func release() {
        for _ in 0..<count { gate.signal() }
    }
}
