import Foundation

/// Tells the runtime when the device is unlocked after a reboot, by observing UIKit's
/// `UIApplicationProtectedDataDidBecomeAvailable` by name (so it compiles everywhere and tests
/// can post it): a store protected until first unlock can be opened from then on.
final class ProtectedDataObserver: @unchecked Sendable {
    /// UIKit's notification name (it has no `Notification` suffix).
    static let didBecomeAvailable = Notification.Name("UIApplicationProtectedDataDidBecomeAvailable")

    // Safe: `token` is only touched while holding `lock`.
    private let lock = NSLock()
    private var token: (any NSObjectProtocol)?
    private let center: NotificationCenter

    /// Starts observing; `available` is called on the posting thread each time.
    init(center: NotificationCenter = .default, available: @escaping @Sendable () -> Void) {
        self.center = center
        let observed = center.addObserver(forName: Self.didBecomeAvailable, object: nil, queue: nil) { _ in available() }
        lock.withLock { token = observed }
    }

    /// Stops observing. Safe to call more than once.
    func stop() {
        let observed: (any NSObjectProtocol)? = lock.withLock {
            defer { token = nil }
            return token
        }
        if let observed { center.removeObserver(observed) }
    }

    deinit { stop() }
}
