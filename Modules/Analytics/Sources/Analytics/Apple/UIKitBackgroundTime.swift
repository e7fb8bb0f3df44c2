// apple-typecheck: with ../BackgroundTimeProvider.swift
// Apple-only: a UIKit app's background time. Type-checked on Linux by .ci/apple-sdk/typecheck.sh.
// UIKit on watchOS has no UIApplication: watchOS uses ExpiringActivityBackgroundTime.
#if canImport(UIKit) && !os(watchOS)
import Foundation
import UIKit

/// Background time in an app: `UIApplication.beginBackgroundTask(withName:expirationHandler:)`,
/// ended with `endBackgroundTask(_:)`. Not for app extensions, which have no shared application.
struct UIKitBackgroundTime: BackgroundTimeProvider {
    /// Begins a background task on the main actor (at once when called on the main thread).
    func begin(reason: String, expired: @escaping @Sendable () -> Void) -> any BackgroundTimeGrant {
        let task = UIKitBackgroundTask()
        if Thread.isMainThread {
            MainActor.assumeIsolated { task.start(reason: reason, expired: expired) }
        } else {
            Task { @MainActor in task.start(reason: reason, expired: expired) }
        }
        return task
    }
}

/// One background task: ended once, even when `end()` comes before the task began.
final class UIKitBackgroundTask: BackgroundTimeGrant, @unchecked Sendable {
    // Safe: `began`, `application` and `ended` are only touched while holding `lock`.
    private let lock = NSLock()
    private var began: UIBackgroundTaskIdentifier?
    private var application: UIApplication?
    private var ended = false

    /// Begins the task; ends it at once if `end()` came first.
    @MainActor
    func start(reason: String, expired: @escaping @Sendable () -> Void) {
        guard let application = Self.sharedApplication else { return }
        let identifier = application.beginBackgroundTask(withName: reason, expirationHandler: { expired() })
        guard identifier != .invalid else { return }
        let endNow = lock.withLock {
            if ended { return true }
            began = identifier
            self.application = application
            return false
        }
        if endNow { application.endBackgroundTask(identifier) }
    }

    /// `UIApplication.shared`, reached by key-value coding so that this compiles where `shared`
    /// is unavailable (a package built for an app extension); nil there.
    @MainActor
    private static var sharedApplication: UIApplication? {
        UIApplication.value(forKey: "sharedApplication") as? UIApplication
    }

    /// Ends the task (`endBackgroundTask(_:)` may be called on any thread).
    func end() {
        let held: (UIApplication, UIBackgroundTaskIdentifier)? = lock.withLock {
            ended = true
            defer { began = nil; application = nil }
            guard let began, let application else { return nil }
            return (application, began)
        }
        if let (application, identifier) = held { application.endBackgroundTask(identifier) }
    }
}
#endif
