// Apple-only: a Mac app's visibility from AppKit. Type-checked on Linux by .ci/apple-sdk/typecheck.sh.
// Mac Catalyst can import AppKit but not use NSApplication: it follows UIKit's notifications.
#if canImport(AppKit) && !targetEnvironment(macCatalyst)
import AppKit
import Foundation

/// Whether any of a Mac app's windows can be seen, from `NSApplication.occlusionState`.
enum AppKitVisibility {
    /// `true` when the app's occlusion state contains `.visible`; nil off the main thread
    /// (AppKit posts the occlusion notification on the main thread, and the state is the main
    /// actor's to read).
    static func isApplicationVisible() -> Bool? {
        guard Thread.isMainThread else { return nil }
        return MainActor.assumeIsolated { NSApplication.shared.occlusionState.contains(.visible) }
    }
}
#endif
