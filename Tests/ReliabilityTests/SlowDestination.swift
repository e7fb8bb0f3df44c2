@testable import Dispatcher
import Foundation
import Tracking

/// A destination that takes a fixed time per batch and counts what it acknowledged: makes a
/// delivery round last long enough to act on it from outside.
final class SlowDestination: Destination, Sendable {
    /// Batches and events delivered so far.
    private let delivered = LockedValue((batches: 0, events: 0))
    let name = "slow"
    let maxBatchBytes = 1 << 20
    let delay: TimeInterval

    init(delay: TimeInterval) { self.delay = delay }

    /// Batches delivered so far.
    var batchCount: Int { delivered.withLock { $0.batches } }

    /// Events delivered so far.
    var eventCount: Int { delivered.withLock { $0.events } }

    func deliver(_ batch: [StoredEvent], sentAt: Date) async -> DeliveryResult {
        try? await Task.sleep(nanoseconds: UInt64(delay * 1_000_000_000))
        delivered.withLock {
            $0.batches += 1
            $0.events += batch.count
        }
        return .delivered
    }
}
