import Foundation
import Tracking

/// The one result of one request, handed to the caller who waits for it, whoever comes first:
/// the transfer finishing, the library's own deadline, or the caller's task being cancelled.
///
/// The deadline is a ``LibraryTimer``: it fires whether or not the transfer (or the system's
/// networking stack) honours its own timeout, and it costs no thread while it waits.
final class TransportCompletion: Sendable {
    private typealias Waiter = CheckedContinuation<Result<HTTPResponse, TransportError>, Never>
    private struct State {
        var continuation: Waiter?
        var outcome: Result<HTTPResponse, TransportError>?
        var timer: LibraryTimer?
    }

    private let state = LockedValue(State())

    /// Waits for ``finish(_:)``. After `seconds` the result is ``TransportError/timedOut(seconds:)``
    /// and `expired` runs; when the calling task is cancelled it is ``TransportError/cancelled``
    /// and `cancelled` runs. Both are meant to stop the transfer, whose late result is dropped.
    func wait(seconds: TimeInterval, expired: @escaping @Sendable () -> Void,
              cancelled: @escaping @Sendable () -> Void) async -> Result<HTTPResponse, TransportError> {
        let timer = LibraryTimer(after: seconds) { [self] in
            if finish(.failure(.timedOut(seconds: seconds))) { expired() }
        }
        let done = state.withLock {
            if $0.outcome == nil { $0.timer = timer }
            return $0.outcome != nil
        }
        if done { timer.cancel() }
        return await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                let early: Result<HTTPResponse, TransportError>? = state.withLock {
                    if let outcome = $0.outcome { return outcome }
                    $0.continuation = continuation
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
        let (waiting, timer, decided): (Waiter?, LibraryTimer?, Bool) = state.withLock { state in
            guard state.outcome == nil else { return (nil, nil, false) }
            state.outcome = result
            defer {
                state.continuation = nil
                state.timer = nil
            }
            return (state.continuation, state.timer, true)
        }
        timer?.cancel()
        waiting?.resume(returning: result)
        return decided
    }
}
