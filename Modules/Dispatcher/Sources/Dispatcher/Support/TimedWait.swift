import Foundation

/// One asynchronous wait of a given length that costs no CPU and no thread while it lasts: the
/// waiting task is suspended and a ``LibraryTimer`` resumes it. ``interrupt()`` (or cancelling
/// the waiting task) ends it early. Use each instance for one wait.
final class TimedWait: @unchecked Sendable {
    // Safe: every `var` below is only touched while holding `lock`.
    private let lock = NSLock()
    private var continuation: CheckedContinuation<Void, Never>?
    private var timer: LibraryTimer?
    private var finished = false

    /// Suspends the calling task for `seconds`, or until ``interrupt()`` or cancellation.
    func wait(seconds: TimeInterval) async {
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let started: Bool = lock.withLock {
                    guard !finished else { return false }
                    self.continuation = continuation
                    return true
                }
                guard started else { return continuation.resume() }
                let timer = LibraryTimer(after: seconds) { [self] in interrupt() }
                let keep = lock.withLock {
                    if !finished { self.timer = timer }
                    return !finished
                }
                if !keep { timer.cancel() }
            }
        } onCancel: {
            interrupt()
        }
    }

    /// Ends the wait now (or makes a wait not yet begun return at once).
    func interrupt() {
        let (continuation, timer) = lock.withLock {
            finished = true
            defer {
                self.continuation = nil
                self.timer = nil
            }
            return (self.continuation, self.timer)
        }
        timer?.cancel()
        continuation?.resume()
    }
}
