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
/// Jobs are spread over the queues in turn: work of the library runs at most `width` at a time,
/// and a task that suspends resumes on whichever queue is next. Nothing the library runs in a
/// task blocks its thread: blocking work goes to queues of its own.
@available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
final class LibraryExecutor: TaskExecutor {
    /// The one executor of the process.
    static let shared = LibraryExecutor(width: LibraryExecutor.defaultWidth)

    /// Two queues, or one per active core up to four.
    static var defaultWidth: Int { min(4, max(2, ProcessInfo.processInfo.activeProcessorCount)) }

    private let queues: [DispatchQueue]
    private let turn = LockedValue(0)

    /// Creates an executor over `width` serial queues (at least one).
    init(width: Int) {
        queues = (0..<max(1, width)).map { DispatchQueue(label: "Dispatcher.tasks.\($0)", qos: .utility) }
    }

    /// How many queues the jobs are spread over.
    var width: Int { queues.count }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        let index = turn.withLock { turn in
            defer { turn = (turn &+ 1) % queues.count }
            return turn
        }
        queues[index].async { job.runSynchronously(on: self.asUnownedTaskExecutor()) }
    }
}
