import Foundation

/// Waits for `work` at most `seconds`; returns its value, or `nil` when the time ran out first.
/// The work is not cancelled: it finishes in the background (a delivery round stops at its own
/// deadline after its current request).
///
/// The timeout needs no thread of Swift's cooperative pool: a ``LibraryTimer`` resumes the
/// caller when the time runs out, so the call returns on time even while the host keeps every
/// pool thread blocked (provided the caller's own executor can run it). The work itself is a
/// library task (see ``LibraryTask``), which runs once one of the library's queues is free.
func withTimeout<Value: Sendable>(_ seconds: TimeInterval, _ work: @escaping @Sendable () async -> Value) async -> Value? {
    let once = ResumeOnce<Value?>()
    return await withCheckedContinuation { continuation in
        once.set(continuation)
        LibraryTask.start { once.resume(with: await work()) }
        let timer = LibraryTimer(after: seconds) { once.resume(with: nil) }
        once.keep(timer)
    }
}
