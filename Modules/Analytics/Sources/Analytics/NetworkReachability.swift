import Foundation

/// Whether the network was last reported reachable (``Dispatcher/LifecycleEvent/reachable`` or
/// ``Dispatcher/LifecycleEvent/unreachable``); reachable until told otherwise, as for the Dispatcher.
final class NetworkReachability: @unchecked Sendable {
    // Safe: `reachable` is only touched while holding `lock`.
    private let lock = NSLock()
    private var reachable = true

    /// The last report.
    var isReachable: Bool {
        get { lock.withLock { reachable } }
        set { lock.withLock { reachable = newValue } }
    }
}
