import Dispatch
import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
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
/// Each job goes to the queue with the fewest jobs waiting or running; among equals, to an idle
/// one, else to the one whose running job started last. A job that holds its queue longer than
/// it should (an app's `Destination` or `HTTPTransport` that blocks, which it must not) thus
/// delays only the jobs queued behind it before the other queues filled up. Work of the
/// library runs at most `width` at a time; a task that suspends resumes on whichever queue is
/// then the best. The library's own blocking work goes to queues of its own
/// (`BlockingQueue`), never here.
@available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
final class LibraryExecutor: TaskExecutor {
    /// The one executor of the process.
    static let shared = LibraryExecutor(width: LibraryExecutor.defaultWidth)

    /// Two queues, or one per online core up to four. Read with `sysconf`: `ProcessInfo`'s count
    /// parses the cgroup files on its first use, on the thread that starts `Analytics`.
    static var defaultWidth: Int { min(4, max(2, sysconf(Int32(_SC_NPROCESSORS_ONLN)))) }

    private let queues: [DispatchQueue]
    private let loads: LockedValue<Loads>

    /// What one queue has to do: jobs waiting, and when the running one started.
    struct QueueLoad: Sendable {
        var waiting = 0
        /// The running job's place in the order jobs started (``Loads/started``); nil when none runs.
        var runningStart: UInt64?

        /// Jobs waiting or running.
        var jobs: Int { waiting + (runningStart == nil ? 0 : 1) }

        /// Whether a job is better sent here than to `other`.
        func isBetter(than other: QueueLoad) -> Bool {
            if jobs != other.jobs { return jobs < other.jobs }
            return (runningStart ?? .max) > (other.runningStart ?? .max)
        }
    }

    /// Every queue's load, and how many jobs have started.
    struct Loads: Sendable {
        var queues: [QueueLoad]
        var started: UInt64 = 0
    }

    /// Creates an executor over `width` serial queues (at least one). They share the utility
    /// pool of the library's other queues, so an idle worker of either serves both.
    init(width: Int) {
        queues = (0..<max(1, width)).map { DispatchQueue(label: "Dispatcher.tasks.\($0)", qos: .utility) }
        loads = LockedValue(Loads(queues: Array(repeating: QueueLoad(), count: queues.count)))
    }

    /// How many queues the jobs are spread over.
    var width: Int { queues.count }

    /// Jobs waiting or running on each queue now.
    var jobsByQueue: [Int] { loads.withLock { $0.queues.map(\.jobs) } }

    /// Sends `job` to the least busy queue (see the type's description).
    @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        let index = loads.withLock { loads in
            var chosen = 0
            for candidate in loads.queues.indices.dropFirst() where loads.queues[candidate].isBetter(than: loads.queues[chosen]) {
                chosen = candidate
            }
            loads.queues[chosen].waiting += 1
            return chosen
        }
        queues[index].async {
            self.loads.withLock { loads in
                loads.started &+= 1
                loads.queues[index].waiting -= 1
                loads.queues[index].runningStart = loads.started
            }
            job.runSynchronously(on: self.asUnownedTaskExecutor())
            self.loads.withLock { $0.queues[index].runningStart = nil }
        }
    }
}
