import Foundation
import Testing
import TestSupport

/// The caller's thread, read outside any async context.
private func currentThread() -> ObjectIdentifier { ObjectIdentifier(Thread.current) }

/// The helpers ``SaturatedPoolTests`` relies on: they wait with a semaphore beside their
/// `LockedValue`, so these tests pin that no wake-up is lost and that a deadline holds.
@Suite("Test helpers: PoolBlockers and ThreadTaskExecutor", .serialized, .runsAlone)
struct PoolHelperTests {
    /// The waits run on a thread of their own, so the blocker can have a pool thread even on a
    /// machine whose small pool is busy; a missed wake-up shows as a wait that lasts 30 s.
    @Test("waitUntilBlocking returns once enough blockers block, and at its deadline when too few can")
    func blockersAreCountedAndTheDeadlineHolds() async throws {
        let blockers = PoolBlockers(count: 1, limit: 60)
        let waits = await SenderThreads.run(1) { _ in
            let created = Date()
            let enough = blockers.waitUntilBlocking(1, timeout: 30)
            let enoughTook = Date().timeIntervalSince(created)
            let start = Date()
            let tooFew = blockers.waitUntilBlocking(2, timeout: 0.3)
            return (enough: enough, enoughTook: enoughTook, tooFew: tooFew, tooFewTook: Date().timeIntervalSince(start))
        }
        blockers.release()
        let wait = try #require(waits.first)
        #expect(wait.enough == 1)
        #expect(wait.enoughTook < 20, "the wait missed the blocker's start")
        #expect(wait.tooFew == 1)
        #expect(wait.tooFewTook >= 0.25 && wait.tooFewTook < 3, "waited \(wait.tooFewTook) s for a deadline of 0.3 s")

        let released = Date()
        while blockers.waitUntilBlocking(1, timeout: 0) > 0, Date().timeIntervalSince(released) < 10 {
            try? await Task.sleep(nanoseconds: 1_000_000)
        }
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
