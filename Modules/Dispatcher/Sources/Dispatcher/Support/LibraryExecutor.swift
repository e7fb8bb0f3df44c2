import Dispatch
import Foundation
import Tracking

/// Where the library's own Swift tasks run on Linux: a few serial dispatch queues of its own,
/// never Swift's global concurrent executor.
///
/// Linux's libdispatch has no kernel workqueue. The first job any process runs on a
/// non-overcommit root queue (Swift's global executor targets one) starts a pool monitor: a
/// timer that wakes the process once a second for the rest of its life. Serial queues target
/// the overcommit root queues, which the monitor does not watch, and their threads end after a
/// few idle seconds; so a library whose tasks run here adds no periodic wake-up to the app.
/// Apple platforms have no such monitor: there the library's tasks run on Swift's cooperative
/// pool, as any task does (see ``LibraryTask``).
///
/// Each job goes to the queue with the fewest jobs queued or running (the next in turn among
/// equals), so a job that holds its queue longer than it should (an app's `Destination` or
/// `HTTPTransport` that blocks, which it must not) delays the jobs behind it only while every
/// queue is as busy. Work of the library runs at most `width` at a time; a task that suspends
/// resumes on whichever queue is then least busy. The library's own blocking work goes to
/// queues of its own (`BlockingQueue`), never here.
@available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
final class LibraryExecutor: TaskExecutor {
    /// The one executor of the process.
    static let shared = LibraryExecutor(width: LibraryExecutor.defaultWidth)

    /// Two queues, or one per active core up to four.
    static var defaultWidth: Int { min(4, max(2, ProcessInfo.processInfo.activeProcessorCount)) }

    private let queues: [DispatchQueue]
    /// Jobs queued or running on each queue, and the queue where the next search for the least
    /// busy one starts.
    private let load: LockedValue<(jobs: [Int], next: Int)>

    /// Creates an executor over `width` serial queues (at least one). They share the utility
    /// pool of the library's other queues, so an idle worker of either serves both.
    init(width: Int) {
        queues = (0..<max(1, width)).map { DispatchQueue(label: "Dispatcher.tasks.\($0)", qos: .utility) }
        load = LockedValue((jobs: Array(repeating: 0, count: queues.count), next: 0))
    }

    /// How many queues the jobs are spread over.
    var width: Int { queues.count }

    /// Jobs queued or running on each queue now.
    var jobsByQueue: [Int] { load.withLock { $0.jobs } }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        let index = load.withLock { load in
            var chosen = load.next
            for offset in 1..<load.jobs.count {
                let candidate = (load.next + offset) % load.jobs.count
                if load.jobs[candidate] < load.jobs[chosen] { chosen = candidate }
            }
            load.jobs[chosen] += 1
            load.next = (chosen + 1) % load.jobs.count
            return chosen
        }
        queues[index].async {
            job.runSynchronously(on: self.asUnownedTaskExecutor())
            self.load.withLock { $0.jobs[index] -= 1 }
        }
    }
}
