import Foundation
import Tracking

/// One asynchronous wait of a given length that costs no CPU and no thread while it lasts: the
/// waiting task is suspended and a ``LibraryTimer`` resumes it. ``interrupt()`` (or cancelling
/// the waiting task) ends it early. Use each instance for one wait.
final class TimedWait: Sendable {
    private struct State {
        var continuation: CheckedContinuation<Void, Never>?
        var timer: LibraryTimer?
        var finished = false
    }

    private let state = LockedValue(State())

    /// Suspends the calling task for `seconds`, or until ``interrupt()`` or cancellation.
    func wait(seconds: TimeInterval) async {
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let started: Bool = state.withLock {
                    guard !$0.finished else { return false }
                    $0.continuation = continuation
                    return true
                }
                guard started else { return continuation.resume() }
                let timer = LibraryTimer(after: seconds) { [self] in interrupt() }
                let keep = state.withLock {
                    if !$0.finished { $0.timer = timer }
                    return !$0.finished
                }
                if !keep { timer.cancel() }
            }
        } onCancel: {
            interrupt()
        }
    }

    /// Ends the wait now (or makes a wait not yet begun return at once).
    func interrupt() {
        let (continuation, timer) = state.withLock { state in
            state.finished = true
            defer {
                state.continuation = nil
                state.timer = nil
            }
            return (state.continuation, state.timer)
        }
        timer?.cancel()
        continuation?.resume()
    }
}
