// apple-typecheck: with ../ReachabilityMonitor.swift ../../../../Tracking/Sources/Tracking/Concurrency/LockedValue.swift
// Apple-only: reachability from the Network framework. Type-checked on Linux by .ci/apple-sdk/typecheck.sh.
#if canImport(Network)
import Dispatch
import Foundation
import Network
#if canImport(Tracking)
import Tracking
#endif

/// Reachability from `NWPathMonitor` (iOS 12, macOS 10.14, tvOS 12, watchOS 5): a path that is
/// `.satisfied`, or `.requiresConnection` (a connection attempt would bring it up, as with
/// VPN on demand), is reachable; `.unsatisfied` is not.
final class NetworkPathReachability: ReachabilityMonitor {
    private let monitor = LockedValue<NWPathMonitor?>(nil)
    private let queue = DispatchQueue(label: "Analytics.reachability")

    /// Starts a path monitor on a queue of its own; a second start replaces the first.
    func start(_ update: @escaping @Sendable (_ reachable: Bool) -> Void) {
        let started = NWPathMonitor()
        started.pathUpdateHandler = { path in update(Self.isReachable(path.status)) }
        let previous: NWPathMonitor? = monitor.withLock { monitor in
            defer { monitor = started }
            return monitor
        }
        previous?.cancel()
        started.start(queue: queue)
    }

    /// Cancels the path monitor (a started monitor lives until cancelled).
    func stop() {
        let started: NWPathMonitor? = monitor.withLock { monitor in
            defer { monitor = nil }
            return monitor
        }
        started?.cancel()
    }

    /// Whether a path with `status` can carry a delivery.
    static func isReachable(_ status: NWPath.Status) -> Bool {
        switch status {
        case .satisfied, .requiresConnection: return true
        case .unsatisfied: return false
        @unknown default: return true
        }
    }
}
#endif
