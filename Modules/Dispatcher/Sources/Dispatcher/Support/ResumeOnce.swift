import Foundation

/// Resumes a continuation once, whoever comes first, then cancels the timer it was given.
final class ResumeOnce<Value: Sendable>: @unchecked Sendable {
    // Safe: `continuation`, `timer` and `resumed` are only touched while holding `lock`.
    private let lock = NSLock()
    private var continuation: CheckedContinuation<Value, Never>?
    private var timer: LibraryTimer?
    private var resumed = false

    func set(_ continuation: CheckedContinuation<Value, Never>) { lock.withLock { self.continuation = continuation } }

    /// Holds the timeout's timer until the continuation is resumed (then cancels it).
    func keep(_ timer: LibraryTimer) {
        let done = lock.withLock {
            if !resumed { self.timer = timer }
            return resumed
        }
        if done { timer.cancel() }
    }

    func resume(with value: Value) {
        let (waiting, timer) = lock.withLock {
            resumed = true
            defer {
                continuation = nil
                self.timer = nil
            }
            return (continuation, self.timer)
        }
        timer?.cancel()
        waiting?.resume(returning: value)
    }
}
