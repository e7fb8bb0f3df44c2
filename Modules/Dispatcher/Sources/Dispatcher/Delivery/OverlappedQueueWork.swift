import Foundation
import Tracking

/// The claim of the next batch, made on a ``BlockingQueue`` of its own while a request is in
/// flight, so that the store's transaction overlaps the network instead of following it.
///
/// A ``DeliveryWorker`` starts it after a full batch (more events are likely due) and waits
/// for it before any other queue call, so the queue never sees two calls at once; it releases
/// what was claimed, without counting an attempt, when the round does not go on to deliver it.
/// (Acknowledgements are never overlapped: a batch delivered whole is acknowledged before the
/// next request goes out, so that a kill re-sends at most the batch in flight.)
final class OverlappedQueueWork: Sendable {
    private struct State {
        var finished: Result<[StoredEvent], any Error>?
        var waiting: CheckedContinuation<Result<[StoredEvent], any Error>, Never>?
    }

    private let state = LockedValue(State())

    /// Starts claiming at most `limit` events within `maxBytes`, due at `now`, on `blockingQueue`
    /// at once (with no hop through Swift's pool).
    init(queue: any DeliveryQueue, limit: Int, maxBytes: Int, now: Date, on blockingQueue: BlockingQueue) {
        blockingQueue.start { [self] in
            let claimed = Result { try queue.claimBatch(limit: limit, maxBytes: maxBytes, now: now) }
            let continuation = state.withLock { state in
                state.finished = claimed
                defer { state.waiting = nil }
                return state.waiting
            }
            continuation?.resume(returning: claimed)
        }
    }

    /// What the claim returned; waits for it to finish. Call it once.
    func claimed() async -> Result<[StoredEvent], any Error> {
        await withCheckedContinuation { continuation in
            let claimed: Result<[StoredEvent], any Error>? = state.withLock {
                if $0.finished == nil { $0.waiting = continuation }
                return $0.finished
            }
            if let claimed { continuation.resume(returning: claimed) }
        }
    }
}
