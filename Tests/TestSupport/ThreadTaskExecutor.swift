import Dispatch
import Foundation
import Tracking

/// A `TaskExecutor` that runs every job on one thread of its own, never on Swift's cooperative
/// pool. Code run under `withTaskExecutorPreference(executor)` (and the resumption of its awaits)
/// runs there, so a test can keep measuring while the pool's threads are all blocked.
///
/// Call ``shutdown()`` once no job can arrive any more: the thread then ends.
/// Test code only: `TaskExecutor` needs macOS 15, iOS 18, tvOS 18, watchOS 11 or visionOS 2.
@available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
public final class ThreadTaskExecutor: TaskExecutor {
    /// The jobs not run yet, in order, and whether ``shutdown()`` was called.
    private let queue = LockedValue((jobs: [UnownedJob](), stopped: false))
    /// Signalled once per queued job and once per ``shutdown()``: the thread waits on it.
    private let wake = DispatchSemaphore(value: 0)

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
        queue.withLock { $0.jobs.append(job) }
        wake.signal()
    }

    /// Lets the thread end once the jobs already queued ran.
    public func shutdown() {
        queue.withLock { $0.stopped = true }
        wake.signal()
    }

    private func run() {
        while true {
            wake.wait()
            // Every signal follows a job queued or a stop: an empty queue here means stopped.
            let next: UnownedJob? = queue.withLock { $0.jobs.isEmpty ? nil : $0.jobs.removeFirst() }
            guard let next else { return }
            next.runSynchronously(on: asUnownedTaskExecutor())
        }
    }
}
