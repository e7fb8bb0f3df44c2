@testable import Dispatcher
import Foundation

/// A destination that takes a fixed time per batch and counts what it acknowledged: makes a
/// delivery round last long enough to act on it from outside.
final class SlowDestination: Destination, @unchecked Sendable {
    // Safe: `batches` and `events` are only touched while holding `lock`; the rest is immutable.
    private let lock = NSLock()
    private var batches = 0
    private var events = 0
    let name = "slow"
    let maxBatchBytes = 1 << 20
    let delay: TimeInterval

    init(delay: TimeInterval) { self.delay = delay }

    /// Batches delivered so far.
    var batchCount: Int { lock.withLock { batches } }

    /// Events delivered so far.
    var eventCount: Int { lock.withLock { events } }

    func deliver(_ batch: [StoredEvent], sentAt: Date) async -> DeliveryResult {
        try? await Task.sleep(nanoseconds: UInt64(delay * 1_000_000_000))
        lock.withLock {
            batches += 1
            events += batch.count
        }
        return .delivered
    }
}
