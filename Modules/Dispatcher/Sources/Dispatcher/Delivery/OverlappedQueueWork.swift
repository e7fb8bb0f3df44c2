import Foundation

/// The queue work of a round done on a ``BlockingQueue`` of its own while a request is in flight, so that
/// the store's transactions overlap the network instead of following it: first the
/// acknowledgement of the previous batch (when it was delivered whole), then the claim of the
/// next batch (after a full batch, when more events are likely due); both in one transaction
/// when both are due (``DeliveryQueue/acknowledge(_:thenClaim:maxBytes:now:)``).
///
/// A ``DeliveryWorker`` waits for it before any other queue call, so the queue never sees two
/// calls at once; it releases what was claimed, without counting an attempt, when the round
/// does not go on to deliver it.
final class OverlappedQueueWork: @unchecked Sendable {
    // Safe: `finished` and `waiting` are only touched while holding `lock`.
    /// What the work did.
    struct Outcome: Sendable {
        /// The acknowledgement's result; nil when there was nothing to acknowledge.
        var acknowledged: Result<Void, any Error>?
        /// The claim's result; nil when no claim was asked for, or the acknowledgement failed.
        var claimed: Result<[StoredEvent], any Error>?
    }

    /// What to claim: at most `limit` events within `maxBytes`, due at `now`.
    struct Claim: Sendable {
        var limit: Int
        var maxBytes: Int
        var now: Date
    }

    private let lock = NSLock()
    private var finished: Outcome?
    private var waiting: CheckedContinuation<Outcome, Never>?

    /// Starts acknowledging `acknowledging` (when not empty), then claiming `claim` (when given),
    /// on `blockingQueue` at once (with no hop through Swift's pool, so the acknowledgement is
    /// committed as soon as the store can).
    init(queue: any DeliveryQueue, acknowledging ids: [UUID], claim: Claim?, on blockingQueue: BlockingQueue) {
        blockingQueue.start { [self] in
            let outcome = Self.perform(queue: queue, acknowledging: ids, claim: claim)
            let continuation = lock.withLock {
                finished = outcome
                defer { waiting = nil }
                return waiting
            }
            continuation?.resume(returning: outcome)
        }
    }

    /// The blocking part: the store calls, in order.
    private static func perform(queue: any DeliveryQueue, acknowledging ids: [UUID], claim: Claim?) -> Outcome {
        var outcome = Outcome()
        if !ids.isEmpty, let claim {
            // One transaction for both: when it fails, nothing was acknowledged.
            do {
                outcome.claimed = .success(try queue.acknowledge(ids, thenClaim: claim.limit, maxBytes: claim.maxBytes, now: claim.now))
                outcome.acknowledged = .success(())
            } catch {
                outcome.acknowledged = .failure(error)
            }
            return outcome
        }
        if !ids.isEmpty {
            let acknowledged = Result { try queue.acknowledge(ids) }
            outcome.acknowledged = acknowledged
            if case .failure = acknowledged { return outcome }
        }
        if let claim {
            outcome.claimed = Result { try queue.claimBatch(limit: claim.limit, maxBytes: claim.maxBytes, now: claim.now) }
        }
        return outcome
    }

    /// What the work did; waits for it to finish. Call it once.
    func outcome() async -> Outcome {
        await withCheckedContinuation { continuation in
            let outcome: Outcome? = lock.withLock {
                if finished == nil { waiting = continuation }
                return finished
            }
            if let outcome { continuation.resume(returning: outcome) }
        }
    }
}
