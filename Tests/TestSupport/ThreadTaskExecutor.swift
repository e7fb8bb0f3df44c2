import Foundation

/// A `TaskExecutor` that runs every job on one thread of its own, never on Swift's cooperative
/// pool. Code run under `withTaskExecutorPreference(executor)` (and the resumption of its awaits)
/// runs there, so a test can keep measuring while the pool's threads are all blocked.
///
/// Call ``shutdown()`` once no job can arrive any more: the thread then ends.
/// Test code only: `TaskExecutor` needs macOS 15, iOS 18, tvOS 18, watchOS 11 or visionOS 2.
@available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
public final class ThreadTaskExecutor: TaskExecutor, @unchecked Sendable {
    // Safe: `jobs` and `stopped` are only touched while holding `condition`.
    private let condition = NSCondition()
    private var jobs: [UnownedJob] = []
    private var stopped = false

    /// Starts the thread.
    /// - Parameter name: the thread's name, seen in debuggers.
    public init(name: String) {
        let thread = Thread { [self] in run() }
        thread.name = name
        thread.start()
    }

    /// Queues a job for the thread.
    public func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        condition.withLock {
            jobs.append(job)
            condition.signal()
        }
    }

    /// Lets the thread end once the jobs already queued ran.
    public func shutdown() {
        condition.withLock {
            stopped = true
            condition.signal()
        }
    }

    private func run() {
        while true {
            let next: UnownedJob? = condition.withLock {
                while jobs.isEmpty, !stopped { condition.wait() }
                return jobs.isEmpty ? nil : jobs.removeFirst()
            }
            guard let next else { return }
            next.runSynchronously(on: asUnownedTaskExecutor())
        }
    }
}
