import Dispatch

/// The library's one way to run blocking work (SQLite, file I/O, waits for the ingest writer)
/// off Swift's cooperative pool: a serial `DispatchQueue` of its own, reached from async code
/// through a continuation.
///
/// A private serial queue targets libdispatch's overcommitting root queue, which gives it a
/// thread whenever it has work, however many other threads are blocked, so blocking here never
/// starves the host's async code, and the host's async code never starves this. The async
/// caller is suspended (it holds no thread) until the work is done. Uses only what the platform
/// floor has (no custom executors).
///
/// Work on one queue runs in order, one item at a time: only work that never waits for a later
/// item of the same queue may run here.
struct BlockingQueue: Sendable {
    private let queue: DispatchQueue

    /// Creates a queue of its own.
    /// - Parameter label: the queue's label, seen in debuggers and crash reports.
    init(label: String) {
        queue = DispatchQueue(label: label, qos: .utility)
    }

    /// Runs `work` on the queue and returns its value; the caller is suspended meanwhile.
    func run<Value: Sendable>(_ work: @escaping @Sendable () -> Value) async -> Value {
        await withCheckedContinuation { continuation in
            queue.async { continuation.resume(returning: work()) }
        }
    }

    /// Runs `work` on the queue and returns its value or rethrows its error.
    func run<Value: Sendable>(_ work: @escaping @Sendable () throws -> Value) async throws -> Value {
        try await run { Result { try work() } }.get()
    }

    /// Queues `work` and returns at once.
    func start(_ work: @escaping @Sendable () -> Void) {
        queue.async(execute: work)
    }

    /// Queues `work` to run once `delay` seconds have passed, and returns at once. Waiting
    /// costs no thread.
    func start(after delay: Double, _ work: @escaping @Sendable () -> Void) {
        queue.asyncAfter(deadline: .now() + .nanoseconds(LibraryTimer.nanoseconds(delay)), execute: work)
    }
}
