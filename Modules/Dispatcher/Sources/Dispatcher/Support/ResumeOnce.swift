import Foundation
import Tracking

/// Resumes a continuation once, whoever comes first, then cancels the timer it was given.
final class ResumeOnce<Value: Sendable>: Sendable {
    private struct State {
        var continuation: CheckedContinuation<Value, Never>?
        var timer: LibraryTimer?
        var resumed = false
    }

    private let state = LockedValue(State())

    func set(_ continuation: CheckedContinuation<Value, Never>) { state.withLock { $0.continuation = continuation } }

    /// Holds the timeout's timer until the continuation is resumed (then cancels it).
    func keep(_ timer: LibraryTimer) {
        let done = state.withLock {
            if !$0.resumed { $0.timer = timer }
            return $0.resumed
        }
        if done { timer.cancel() }
    }

    func resume(with value: Value) {
        let (waiting, timer) = state.withLock { state in
            state.resumed = true
            defer {
                state.continuation = nil
                state.timer = nil
            }
            return (state.continuation, state.timer)
        }
        timer?.cancel()
        waiting?.resume(returning: value)
    }
}
