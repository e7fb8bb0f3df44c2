import Foundation

/// The claim of the next batch, made on a ``BlockingQueue`` of its own while a request is in
/// flight, so that the store's transaction overlaps the network instead of following it.
///
/// A ``DeliveryWorker`` starts it after a full batch (more events are likely due) and waits
/// for it before any other queue call, so the queue never sees two calls at once; it releases
/// what was claimed, without counting an attempt, when the round does not go on to deliver it.
/// (Acknowledgements are never overlapped: a batch delivered whole is acknowledged before the
/// next request goes out, so that a kill re-sends at most the batch in flight.)
final class OverlappedQueueWork: @unchecked Sendable {
    // Safe: `finished` and `waiting` are only touched while holding `lock`.
    private let lock = NSLock()
    private var finished: Result<[StoredEvent], any Error>?
    private var waiting: CheckedContinuation<Result<[StoredEvent], any Error>, Never>?

    /// Starts claiming at most `limit` events within `maxBytes`, due at `now`, on `blockingQueue`
    /// at once (with no hop through Swift's pool).
    init(queue: any DeliveryQueue, limit: Int, maxBytes: Int, now: Date, on blockingQueue: BlockingQueue) {
        blockingQueue.start { [self] in
            let claimed = Result { try queue.claimBatch(limit: limit, maxBytes: maxBytes, now: now) }
            let continuation = lock.withLock {
                finished = claimed
                defer { waiting = nil }
                return waiting
            }
            continuation?.resume(returning: claimed)
        }
    }

    /// What the claim returned; waits for it to finish. Call it once.
    func claimed() async -> Result<[StoredEvent], any Error> {
        await withCheckedContinuation { continuation in
            let claimed: Result<[StoredEvent], any Error>? = lock.withLock {
                if finished == nil { waiting = continuation }
                return finished
            }
            if let claimed { continuation.resume(returning: claimed) }
        }
    }
}
