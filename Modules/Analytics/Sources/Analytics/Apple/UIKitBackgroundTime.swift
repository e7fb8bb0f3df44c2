// apple-typecheck: with ../BackgroundTimeProvider.swift ../../../../Tracking/Sources/Tracking/Concurrency/LockedValue.swift
// Apple-only: a UIKit app's background time. Type-checked on Linux by .ci/apple-sdk/typecheck.sh.
// UIKit on watchOS has no UIApplication: watchOS uses ExpiringActivityBackgroundTime.
#if canImport(UIKit) && !os(watchOS)
import Foundation
#if canImport(Tracking)
import Tracking
#endif
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
// Unchecked: `task` holds the `UIApplication` (a main-actor class, not `Sendable`) so that `end()`
// can end the task from any thread, as UIKit allows; its box's lock guards it.
final class UIKitBackgroundTask: BackgroundTimeGrant, @unchecked Sendable {
    /// The task once begun, and whether it was ended.
    private struct Held {
        var began: UIBackgroundTaskIdentifier?
        var application: UIApplication?
        var ended = false
    }

    private let task = LockedValue(Held())

    /// Begins the task; ends it at once if `end()` came first.
    @MainActor
    func start(reason: String, expired: @escaping @Sendable () -> Void) {
        guard let application = Self.sharedApplication else { return }
        let identifier = application.beginBackgroundTask(withName: reason, expirationHandler: { expired() })
        guard identifier != .invalid else { return }
        let endNow = task.withLock { task in
            if task.ended { return true }
            task.began = identifier
            task.application = application
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
        let held: (UIApplication, UIBackgroundTaskIdentifier)? = task.withLock { task in
            task.ended = true
            defer { task.began = nil; task.application = nil }
            guard let began = task.began, let application = task.application else { return nil }
            return (application, began)
        }
        if let (application, identifier) = held { application.endBackgroundTask(identifier) }
    }
}
#endif
