import Foundation
import Tracking

/// The key a ``Redactor`` hashes under, replaceable while events flow (``DataQualityStack/
/// replaceRedactionKey(_:)``, after a purge), and the redacted form of the last shared context,
/// which is forgotten when the key changes so that no hash under the old key is handed out again.
final class RedactionKeyHolder: Sendable {
    private let current: LockedValue<Redactor.Strategy>
    /// The redacted form of the last shared context seen, by identity.
    let sharedCache = LastValueCache<SharedContext, SharedContext>()

    /// Holds `strategy` until it is replaced.
    init(_ strategy: Redactor.Strategy) { current = LockedValue(strategy) }

    /// What happens to sensitive values now.
    var strategy: Redactor.Strategy { current.withLock { $0 } }

    /// Hashes under `key` from now on (a stack that removes sensitive values keeps removing them),
    /// and forgets the cached redacted shared context.
    func replace(_ key: RedactionKey) {
        current.withLock { current in
            if case .hash = current { current = .hash(key: key) }
        }
        sharedCache.reset()
    }
}
