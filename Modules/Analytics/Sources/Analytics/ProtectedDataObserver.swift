import Foundation
import Tracking

/// Tells the runtime when the device is unlocked after a reboot, by observing UIKit's
/// `UIApplicationProtectedDataDidBecomeAvailable` by name (so it compiles everywhere and tests
/// can post it): a store protected until first unlock can be opened from then on.
// Unchecked: `token` is NotificationCenter's observer token (`any NSObjectProtocol`), which is not
// `Sendable`; its box's lock guards it.
final class ProtectedDataObserver: @unchecked Sendable {
    /// UIKit's notification name (it has no `Notification` suffix).
    static let didBecomeAvailable = Notification.Name("UIApplicationProtectedDataDidBecomeAvailable")

    private let token = LockedValue<(any NSObjectProtocol)?>(nil)
    private let center: NotificationCenter

    /// Starts observing; `available` is called on the posting thread each time.
    init(center: NotificationCenter = .default, available: @escaping @Sendable () -> Void) {
        self.center = center
        let observed = center.addObserver(forName: Self.didBecomeAvailable, object: nil, queue: nil) { _ in available() }
        token.withLock { $0 = observed }
    }

    /// Stops observing. Safe to call more than once.
    func stop() {
        let observed: (any NSObjectProtocol)? = token.withLock { token in
            defer { token = nil }
            return token
        }
        if let observed { center.removeObserver(observed) }
    }

    deinit { stop() }
}
