import Foundation
import Tracking

/// The one ``Tracking/SharedContext`` hydration hands to every event, rebuilt only when what it
/// holds changes: a new session, a log in or out, a new installation id (after a purge).
final class SharedContextCache: @unchecked Sendable {
    /// What the shared context depends on besides the fixed app, device and library facts.
    struct Key: Equatable {
        /// The installation id, when identifiers are added.
        var installationID: UUID?
        /// The logged-in user's id.
        var userID: String?
        /// The session's id, when a session is added.
        var sessionID: UUID?
    }

    // Safe: `last` is only touched while holding `lock`.
    private let lock = NSLock()
    private var last: (key: Key, context: SharedContext)?

    /// The context for `key`: the cached one when `key` is the last one asked for, otherwise
    /// `build()`'s, which is kept for the next call.
    func context(for key: Key, build: () -> SharedContext) -> SharedContext {
        let cached: SharedContext? = lock.withLock {
            guard let last, last.key == key else { return nil }
            return last.context
        }
        if let cached { return cached }
        let built = build()
        lock.withLock { last = (key, built) }
        return built
    }
}
