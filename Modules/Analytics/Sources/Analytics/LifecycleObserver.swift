import Dispatcher
import Foundation
import Tracking

/// Follows the app's lifecycle through `NotificationCenter`, by notification name, so the same
/// code compiles without UIKit, WatchKit or AppKit, on Linux too, and tests can post the
/// notifications.
///
/// - UIKit (iOS, iPadOS, tvOS, visionOS, Mac Catalyst): `UIApplicationDidEnterBackgroundNotification`
///   and `UIApplicationWillEnterForegroundNotification`.
/// - WatchKit (watchOS 7 and later): `WKApplicationDidEnterBackgroundNotification` and
///   `WKApplicationWillEnterForegroundNotification`; `WKExtension`'s names (watchOS 7) and
///   `WKApplication`'s (watchOS 9) are these same strings.
/// - App extensions: Foundation's `NSExtensionHostDidEnterBackgroundNotification` and
///   `NSExtensionHostWillEnterForegroundNotification`, about the host app.
/// - AppKit: a Mac app is "in the background" when none of its windows can be seen, not when it
///   merely loses focus, so resign-active and become-active (which fire on every app switch) are
///   not observed. Hiding (`NSApplicationDidHideNotification`/`NSApplicationDidUnhideNotification`)
///   and the app's occlusion (`NSApplicationDidChangeOcclusionStateNotification`, read through
///   `isApplicationVisible`: minimised windows, another Space, the screen locked) are.
///
/// Each moment is delivered once: a moment equal to the last one delivered is dropped. Mac
/// Catalyst posts UIKit's names and some of AppKit's for one change, and hiding a Mac app also
/// changes its occlusion; observing every name everywhere and dropping the repeats gives one
/// delivery without a table per platform.
// Unchecked: `tokens` holds NotificationCenter's observer tokens (`any NSObjectProtocol`), which
// are not `Sendable`; its box's lock guards them.
final class LifecycleObserver: @unchecked Sendable {
    /// The notification names that always mean the same moment.
    static let notifications: [(name: Notification.Name, event: LifecycleEvent)] = [
        (Notification.Name("UIApplicationDidEnterBackgroundNotification"), .didEnterBackground),
        (Notification.Name("UIApplicationWillEnterForegroundNotification"), .willEnterForeground),
        (Notification.Name("WKApplicationDidEnterBackgroundNotification"), .didEnterBackground),
        (Notification.Name("WKApplicationWillEnterForegroundNotification"), .willEnterForeground),
        (Notification.Name("NSExtensionHostDidEnterBackgroundNotification"), .didEnterBackground),
        (Notification.Name("NSExtensionHostWillEnterForegroundNotification"), .willEnterForeground),
        (Notification.Name("NSApplicationDidHideNotification"), .didEnterBackground),
        (Notification.Name("NSApplicationDidUnhideNotification"), .willEnterForeground),
    ]

    /// AppKit's occlusion change: background when the app is no longer visible, foreground
    /// when it is again.
    static let occlusionChange = Notification.Name("NSApplicationDidChangeOcclusionStateNotification")

    private let tokens = LockedValue<[any NSObjectProtocol]>([])
    /// The last moment delivered.
    private let last = LockedValue<LifecycleEvent?>(nil)
    private let center: NotificationCenter
    private let handle: @Sendable (LifecycleEvent) -> Void

    /// Starts observing; `handle` is called for each new moment, on the posting thread.
    /// - Parameters:
    ///   - center: the center the notifications are posted on.
    ///   - isApplicationVisible: whether any of the app's windows can be seen (AppKit's
    ///     occlusion state), or nil where that cannot be known (the change is then ignored).
    ///   - handle: told each moment.
    init(
        center: NotificationCenter = .default,
        isApplicationVisible: @escaping @Sendable () -> Bool? = { nil },
        handle: @escaping @Sendable (LifecycleEvent) -> Void
    ) {
        self.center = center
        self.handle = handle
        var observed = Self.notifications.map { name, event in
            center.addObserver(forName: name, object: nil, queue: nil) { [weak self] _ in self?.deliver(event) }
        }
        observed.append(center.addObserver(forName: Self.occlusionChange, object: nil, queue: nil) { [weak self] _ in
            guard let visible = isApplicationVisible() else { return }
            self?.deliver(visible ? .willEnterForeground : .didEnterBackground)
        })
        tokens.withLock { $0 = observed }
    }

    /// Stops observing. Safe to call more than once.
    func stop() {
        let observed = tokens.withLock { tokens in
            defer { tokens.removeAll() }
            return tokens
        }
        for token in observed { center.removeObserver(token) }
    }

    deinit { stop() }

    /// Hands `event` on unless it repeats the last moment delivered.
    private func deliver(_ event: LifecycleEvent) {
        let isNew = last.withLock { last in
            defer { last = event }
            return last != event
        }
        if isNew { handle(event) }
    }
}
