import Dispatcher
import Foundation

/// Follows the app's lifecycle through `NotificationCenter`, by notification name, so the same
/// code compiles without UIKit or AppKit, on Linux too, and tests can post the notifications.
///
/// UIKit's `UIApplicationDidEnterBackgroundNotification` and AppKit's
/// `NSApplicationDidResignActiveNotification` mean ``LifecycleEvent/didEnterBackground``;
/// UIKit's `UIApplicationWillEnterForegroundNotification` and AppKit's
/// `NSApplicationWillBecomeActiveNotification` mean ``LifecycleEvent/willEnterForeground``.
final class LifecycleObserver: @unchecked Sendable {
    /// The notification names observed, and what each means.
    static let notifications: [(name: Notification.Name, event: LifecycleEvent)] = [
        (Notification.Name("UIApplicationDidEnterBackgroundNotification"), .didEnterBackground),
        (Notification.Name("UIApplicationWillEnterForegroundNotification"), .willEnterForeground),
        (Notification.Name("NSApplicationDidResignActiveNotification"), .didEnterBackground),
        (Notification.Name("NSApplicationWillBecomeActiveNotification"), .willEnterForeground),
    ]

    // Safe: `tokens` is only touched while holding `lock`.
    private let lock = NSLock()
    private var tokens: [any NSObjectProtocol] = []
    private let center: NotificationCenter

    /// Starts observing; `handle` is called for each notification, on the posting thread.
    init(center: NotificationCenter = .default, handle: @escaping @Sendable (LifecycleEvent) -> Void) {
        self.center = center
        let observed = Self.notifications.map { name, event in
            center.addObserver(forName: name, object: nil, queue: nil) { _ in handle(event) }
        }
        lock.withLock { tokens = observed }
    }

    /// Stops observing. Safe to call more than once.
    func stop() {
        let observed = lock.withLock {
            defer { tokens.removeAll() }
            return tokens
        }
        for token in observed { center.removeObserver(token) }
    }

    deinit { stop() }
}
