// Stub of Foundation API that exists on Apple platforms but not in swift-corelibs-foundation,
// for .ci/apple-sdk/typecheck.sh. An Apple/ file imports it under
// `#if canImport(AppleFoundationExtras)`, which only the type-check satisfies.
// Only declarations the code uses, with Apple's Swift signatures (bodies are never run):
// - ProcessInfo "func performExpiringActivity(withReason reason: String, using block:
//   @escaping @Sendable (Bool) -> Void)" (iOS 8.2, tvOS 9, watchOS 2, visionOS 1, Mac Catalyst; not macOS)
//   https://developer.apple.com/documentation/foundation/processinfo/performexpiringactivity(withreason:using:)
import Foundation

extension ProcessInfo {
    public func performExpiringActivity(withReason reason: String, using block: @escaping @Sendable (Bool) -> Void) {}
}
