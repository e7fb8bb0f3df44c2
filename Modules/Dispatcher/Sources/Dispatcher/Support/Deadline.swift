import Foundation

/// Waits for `work` at most `seconds`; returns its value, or `nil` when the time ran out first.
/// The work is not cancelled: it finishes in the background (a delivery round stops at its own
/// deadline after its current request).
///
/// Neither the work nor the timeout needs Swift's cooperative pool: the work starts on the
/// library's ``QueueExecutor``, and a ``LibraryTimer`` resumes the caller when the time runs out,
/// so the call returns on time even while the host keeps every pool thread blocked (provided the
/// caller's own executor can run it).
func withTimeout<Value: Sendable>(_ seconds: TimeInterval, _ work: @escaping @Sendable () async -> Value) async -> Value? {
    let once = ResumeOnce<Value?>()
    return await withCheckedContinuation { continuation in
        once.set(continuation)
        Task(executorPreference: QueueExecutor.shared) { once.resume(with: await work()) }
        let timer = LibraryTimer(after: seconds) { once.resume(with: nil) }
        once.keep(timer)
    }
}

/// Resumes a continuation once, whoever comes first, then cancels the timer it was given.
private final class ResumeOnce<Value: Sendable>: @unchecked Sendable {
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
