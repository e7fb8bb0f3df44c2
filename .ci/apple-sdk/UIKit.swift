// Stub of the UIKit declarations the SDK's Apple/ files use, for .ci/apple-sdk/typecheck.sh.
// Only declarations the code uses, with Apple's Swift signatures (bodies are never run):
// - UIApplication: "@MainActor class UIApplication" (a UIResponder, an NSObject), and
//   "class var shared: UIApplication { get }"
//   https://developer.apple.com/documentation/uikit/uiapplication/shared
// - "nonisolated func beginBackgroundTask(withName taskName: String?, expirationHandler handler:
//   (@MainActor @Sendable () -> Void)? = nil) -> UIBackgroundTaskIdentifier"
//   https://developer.apple.com/documentation/uikit/uiapplication/beginbackgroundtask(withname:expirationhandler:)
//   (its sibling beginBackgroundTask(expirationHandler:) has the same handler type)
// - "nonisolated func endBackgroundTask(_ identifier: UIBackgroundTaskIdentifier)"
//   https://developer.apple.com/documentation/uikit/uiapplication/endbackgroundtask(_:)
// - "struct UIBackgroundTaskIdentifier" (RawRepresentable, Hashable, Sendable; init(rawValue: Int))
//   with "static let invalid: UIBackgroundTaskIdentifier"
//   https://developer.apple.com/documentation/uikit/uibackgroundtaskidentifier
import Foundation

@MainActor
open class UIApplication: NSObject {
    open class var shared: UIApplication { fatalError("stub") }

    // Not UIKit's: NSObject's key-value coding (`value(forKey:)`), which an Objective-C class
    // object answers on Apple platforms; swift-corelibs-foundation's NSObject has no KVC.
    nonisolated open class func value(forKey key: String) -> Any? { nil }

    nonisolated open func beginBackgroundTask(
        withName taskName: String?, expirationHandler handler: (@MainActor @Sendable () -> Void)? = nil
    ) -> UIBackgroundTaskIdentifier { fatalError("stub") }

    nonisolated open func endBackgroundTask(_ identifier: UIBackgroundTaskIdentifier) {}
}

public struct UIBackgroundTaskIdentifier: RawRepresentable, Hashable, Sendable {
    public var rawValue: Int
    public init(rawValue: Int) { self.rawValue = rawValue }
    public static let invalid = UIBackgroundTaskIdentifier(rawValue: 0)
}
