// apple-typecheck: with ../BackgroundTimeProvider.swift
// Apple-only: background time in app extensions and on watchOS. Type-checked on Linux by
// .ci/apple-sdk/typecheck.sh. `performExpiringActivity(withReason:using:)` exists on iOS,
// tvOS, watchOS, visionOS and Mac Catalyst, exactly where UIKit does; not on macOS, and not in
// swift-corelibs-foundation (the type-check's AppleFoundationExtras stub declares it).
#if canImport(UIKit)
import Dispatch
import Foundation
#if canImport(AppleFoundationExtras)
import AppleFoundationExtras
#endif

/// Background time through `ProcessInfo.performExpiringActivity(withReason:using:)`: the
/// activity lasts while its block runs, so the block waits (on the system's queue) until the
/// grant ends; when the system calls it again with `expired == true`, `expired` is told.
struct ExpiringActivityBackgroundTime: BackgroundTimeProvider {
    /// Starts an expiring activity that lasts until the grant ends or the time expires.
    func begin(reason: String, expired: @escaping @Sendable () -> Void) -> any BackgroundTimeGrant {
        let activity = ExpiringActivity()
        ProcessInfo.processInfo.performExpiringActivity(withReason: reason) { isExpiring in
            if isExpiring {
                expired()
                activity.end()
            } else {
                activity.waitUntilEnded()
            }
        }
        return activity
    }
}

/// One expiring activity: ``end()`` lets its block return, which ends it.
final class ExpiringActivity: BackgroundTimeGrant {
    private let ended = DispatchSemaphore(value: 0)

    /// Lets the activity's block return.
    func end() { ended.signal() }

    /// Blocks the activity's block until ``end()``.
    func waitUntilEnded() { ended.wait() }
}
#endif
