// Stub of the AppKit declarations the SDK's Apple/ files use, for .ci/apple-sdk/typecheck.sh.
// Only declarations the code uses, with Apple's Swift signatures (bodies are never run):
// - "@MainActor class NSApplication" (an NSResponder, an NSObject) and
//   "class var shared: NSApplication { get }"
//   https://developer.apple.com/documentation/appkit/nsapplication/shared
// - "var occlusionState: NSApplication.OcclusionState { get }" (macOS 10.9)
//   https://developer.apple.com/documentation/appkit/nsapplication/occlusionstate-swift.property
// - "struct OcclusionState" (OptionSet of UInt) with "static var visible: NSApplication.OcclusionState { get }"
//   https://developer.apple.com/documentation/appkit/nsapplication/occlusionstate-swift.struct
import Foundation

@MainActor
open class NSApplication: NSObject {
    open class var shared: NSApplication { fatalError("stub") }

    open var occlusionState: NSApplication.OcclusionState { fatalError("stub") }

    public struct OcclusionState: OptionSet, Sendable {
        public let rawValue: UInt
        public init(rawValue: UInt) { self.rawValue = rawValue }
        public static var visible: NSApplication.OcclusionState { OcclusionState(rawValue: 1 << 1) }
    }
}
