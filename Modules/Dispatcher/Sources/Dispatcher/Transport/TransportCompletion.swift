import Foundation

/// The one result of one request, handed to the caller who waits for it, whoever comes first:
/// the transfer finishing, the library's own deadline, or the caller's task being cancelled.
///
/// The deadline is a ``LibraryTimer``: it fires whether or not the transfer (or the system's
/// networking stack) honours its own timeout, and it costs no thread while it waits.
final class TransportCompletion: @unchecked Sendable {
    // Safe: `continuation`, `outcome` and `timer` are only touched while holding `lock`.
    private let lock = NSLock()
    private typealias Waiter = CheckedContinuation<Result<HTTPResponse, TransportError>, Never>
    private var continuation: Waiter?
    private var outcome: Result<HTTPResponse, TransportError>?
    private var timer: LibraryTimer?

    /// Waits for ``finish(_:)``. After `seconds` the result is ``TransportError/timedOut(seconds:)``
    /// and `expired` runs; when the calling task is cancelled it is ``TransportError/cancelled``
    /// and `cancelled` runs. Both are meant to stop the transfer, whose late result is dropped.
    func wait(seconds: TimeInterval, expired: @escaping @Sendable () -> Void,
              cancelled: @escaping @Sendable () -> Void) async -> Result<HTTPResponse, TransportError> {
        let timer = LibraryTimer(after: seconds) { [self] in
            if finish(.failure(.timedOut(seconds: seconds))) { expired() }
        }
        let done = lock.withLock {
            if outcome == nil { self.timer = timer }
            return outcome != nil
        }
        if done { timer.cancel() }
        return await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                let early: Result<HTTPResponse, TransportError>? = lock.withLock {
                    if let outcome { return outcome }
                    self.continuation = continuation
                    return nil
                }
                if let early { continuation.resume(returning: early) }
            }
        } onCancel: {
            if finish(.failure(.cancelled)) { cancelled() }
        }
    }

    /// Records `result` unless a result is already recorded, and resumes the waiting caller.
    /// - Returns: whether this call decided the result.
    @discardableResult
    func finish(_ result: Result<HTTPResponse, TransportError>) -> Bool {
        let (waiting, timer, decided): (Waiter?, LibraryTimer?, Bool) = lock.withLock {
            guard outcome == nil else { return (nil, nil, false) }
            outcome = result
            defer {
                continuation = nil
                self.timer = nil
            }
            return (continuation, self.timer, true)
        }
        timer?.cancel()
        waiting?.resume(returning: result)
        return decided
    }
}
