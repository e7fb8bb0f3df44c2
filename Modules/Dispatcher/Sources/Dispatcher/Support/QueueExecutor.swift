import Dispatch

/// Runs Swift concurrency jobs on a private serial `DispatchQueue`, never on Swift's cooperative
/// thread pool.
///
/// A serial queue of its own targets libdispatch's overcommitting root queue, which starts a
/// thread whenever the queue has work, however many other threads are blocked. The delivery
/// worker is isolated to one (its blocking SQLite calls run there), its rounds prefer it as their
/// task executor (so a destination's own code and the resumption of a request run there too),
/// and ``shared`` starts the library's other tasks. A host that fills the cooperative pool with
/// blocked threads therefore cannot stall delivery, timeouts or waits.
///
/// Only code that never blocks waiting for another job of the same queue may run here.
final class QueueExecutor: SerialExecutor, TaskExecutor {
    private let queue: DispatchQueue

    /// The executor the library starts its own short tasks on (timeouts, scheduling).
    static let shared = QueueExecutor(label: "Dispatcher.tasks")

    /// Creates an executor with a serial queue of its own.
    /// - Parameter label: the queue's label, seen in debuggers and crash reports.
    init(label: String) {
        queue = DispatchQueue(label: label, qos: .utility)
    }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        queue.async { [self] in
            job.runSynchronously(isolatedTo: asUnownedSerialExecutor(), taskExecutor: asUnownedTaskExecutor())
        }
    }

    func asUnownedSerialExecutor() -> UnownedSerialExecutor {
        UnownedSerialExecutor(ordinary: self)
    }

    func asUnownedTaskExecutor() -> UnownedTaskExecutor {
        UnownedTaskExecutor(ordinary: self)
    }

    func checkIsolated() {
        dispatchPrecondition(condition: .onQueue(queue))
    }
}
