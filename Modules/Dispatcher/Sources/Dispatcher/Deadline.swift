import Foundation

/// Waits for `work` at most `seconds`; returns its value, or `nil` when the time ran out first.
/// The work is not cancelled: it finishes in the background (a delivery round stops at its own
/// deadline after its current request).
func withTimeout<Value: Sendable>(_ seconds: TimeInterval, _ work: @escaping @Sendable () async -> Value) async -> Value? {
    let once = ResumeOnce<Value?>()
    return await withCheckedContinuation { continuation in
        once.set(continuation)
        Task { once.resume(with: await work()) }
        Task {
            try? await Task.sleep(nanoseconds: UInt64(max(0, seconds) * 1_000_000_000))
            once.resume(with: nil)
        }
    }
}

/// Resumes a continuation once, whoever comes first.
private final class ResumeOnce<Value: Sendable>: @unchecked Sendable {
    // Safe: `continuation` is only touched while holding `lock`.
    private let lock = NSLock()
    private var continuation: CheckedContinuation<Value, Never>?

    func set(_ continuation: CheckedContinuation<Value, Never>) { lock.withLock { self.continuation = continuation } }

    func resume(with value: Value) {
        let waiting = lock.withLock {
            defer { continuation = nil }
            return continuation
        }
        waiting?.resume(returning: value)
    }
}
