import Foundation

/// The next batch of a round, claimed on a queue of its own while the current batch's request
/// is in flight, so that the claim (a SQLite transaction) overlaps the network instead of
/// following it.
///
/// A ``DeliveryWorker`` starts one only after a full batch (more events are likely due), waits
/// for it before settling the current batch (so the queue never sees two calls at once), and
/// releases what it claimed, without counting an attempt, when the round does not go on to
/// deliver it.
final class BatchPrefetch: Sendable {
    private let claim: Task<Result<[StoredEvent], any Error>, Never>

    /// Starts claiming up to `limit` events within `maxBytes` that are due at `now`.
    init(queue: any DeliveryQueue, limit: Int, maxBytes: Int, now: Date, executor: QueueExecutor) {
        claim = Task(executorPreference: executor) {
            Result { try queue.claimBatch(limit: limit, maxBytes: maxBytes, now: now) }
        }
    }

    /// The claimed batch, or the claim's error; waits for the claim to finish.
    func batch() async -> Result<[StoredEvent], any Error> { await claim.value }
}
