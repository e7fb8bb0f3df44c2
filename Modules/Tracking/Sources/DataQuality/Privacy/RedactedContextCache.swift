import Foundation
import Tracking

/// The redacted form of the last ``Tracking/SharedContext`` a `Redactor` saw, by identity: a
/// shared context is redacted once, and every event sharing it then shares the redacted one.
final class RedactedContextCache: @unchecked Sendable {
    // Safe: `last` is only touched while holding `lock`. It holds the original strongly, so its
    // identity cannot be reused by another instance while cached.
    private let lock = NSLock()
    private var last: (original: SharedContext, redacted: SharedContext)?

    /// The redacted form of `shared`: the cached one when `shared` is the instance last asked
    /// for, otherwise `redact(shared)`'s, which is kept for the next call.
    func redacted(_ shared: SharedContext, redact: (SharedContext) -> SharedContext) -> SharedContext {
        let cached: SharedContext? = lock.withLock {
            guard let last, last.original === shared else { return nil }
            return last.redacted
        }
        if let cached { return cached }
        let redacted = redact(shared)
        lock.withLock { last = (shared, redacted) }
        return redacted
    }
}
