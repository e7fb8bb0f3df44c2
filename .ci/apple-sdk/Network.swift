// Stub of the Network framework declarations the SDK's Apple/ files use, for
// .ci/apple-sdk/typecheck.sh. Only declarations the code uses, with Apple's Swift signatures
// (bodies are never run):
// - "final class NWPathMonitor" (iOS 12, macOS 10.14, tvOS 12, watchOS 5), "init()"
//   https://developer.apple.com/documentation/network/nwpathmonitor
// - "@preconcurrency final var pathUpdateHandler: (@Sendable (NWPath) -> Void)? { get set }"
//   https://developer.apple.com/documentation/network/nwpathmonitor/pathupdatehandler
// - "final func start(queue: DispatchQueue)", "final func cancel()"
//   https://developer.apple.com/documentation/network/nwpathmonitor/start(queue:)
// - "struct NWPath" with "let status: NWPath.Status"
//   https://developer.apple.com/documentation/network/nwpath/status-swift.property
// - "enum Status": satisfied, unsatisfied, requiresConnection (not frozen: switches need
//   @unknown default; this module is built with library evolution, as Apple's are)
//   https://developer.apple.com/documentation/network/nwpath/status-swift.enum
import Dispatch

public final class NWPathMonitor: @unchecked Sendable {
    public init() {}
    @preconcurrency public final var pathUpdateHandler: (@Sendable (NWPath) -> Void)?
    public final func start(queue: DispatchQueue) {}
    public final func cancel() {}
}

public struct NWPath: Sendable {
    public let status: NWPath.Status

    public enum Status: Sendable, Equatable, Hashable {
        case satisfied
        case unsatisfied
        case requiresConnection
    }
}
