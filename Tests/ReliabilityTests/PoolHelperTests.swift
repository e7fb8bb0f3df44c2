import Foundation
import Testing
import TestSupport

/// The caller's thread, read outside any async context.
private func currentThread() -> ObjectIdentifier { ObjectIdentifier(Thread.current) }

/// The helpers ``SaturatedPoolTests`` relies on: they wait with a semaphore beside their
/// `LockedValue`, so these tests pin that no wake-up is lost and that a deadline holds.
@Suite("Test helpers: PoolBlockers and ThreadTaskExecutor", .serialized)
struct PoolHelperTests {
    @Test("waitUntilBlocking returns once enough blockers block, and at its deadline when too few can")
    func blockersAreCountedAndTheDeadlineHolds() {
        let blockers = PoolBlockers(count: 1, limit: 5)
        let created = Date()
        #expect(blockers.waitUntilBlocking(1, timeout: 10) == 1)
        #expect(Date().timeIntervalSince(created) < 5, "the wait missed the blocker's start")

        let start = Date()
        let blocking = blockers.waitUntilBlocking(2, timeout: 0.3)
        let took = Date().timeIntervalSince(start)
        #expect(blocking == 1)
        #expect(took >= 0.25 && took < 3, "waited \(took) s for a deadline of 0.3 s")

        blockers.release()
        let released = Date()
        while blockers.waitUntilBlocking(1, timeout: 0) > 0, Date().timeIntervalSince(released) < 5 { usleep(1_000) }
        #expect(blockers.waitUntilBlocking(1, timeout: 0) == 0, "the released blocker still blocks")
    }

    /// Child tasks that each hold their thread for a moment spread over the pool's threads; on
    /// the executor they all run, one after another, on its single thread.
    @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *) // ThreadTaskExecutor
    @Test("ThreadTaskExecutor runs every job, its child tasks' too, on one thread of its own")
    func executorRunsEveryJobOnItsThread() async {
        let executor = ThreadTaskExecutor(name: "PoolHelperTests.executor")
        let threads = await withTaskExecutorPreference(executor) {
            await withTaskGroup(of: ObjectIdentifier.self) { group in
                for _ in 0..<20 {
                    group.addTask {
                        try? await Task.sleep(nanoseconds: 1_000_000)
                        usleep(2_000)
                        return currentThread()
                    }
                }
                return await group.reduce(into: [ObjectIdentifier]()) { $0.append($1) }
            }
        }
        executor.shutdown()
        #expect(threads.count == 20)
        #expect(Set(threads).count == 1, "the jobs ran on \(Set(threads).count) threads")
    }
}
