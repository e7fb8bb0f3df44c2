import Foundation
import Tracking

/// Whether the network was last reported reachable (``Dispatcher/LifecycleEvent/reachable`` or
/// ``Dispatcher/LifecycleEvent/unreachable``); reachable until told otherwise, as for the Dispatcher.
final class NetworkReachability: Sendable {
    private let reachable = LockedValue(true)

    /// The last report.
    var isReachable: Bool {
        get { reachable.withLock { $0 } }
        set { reachable.withLock { $0 = newValue } }
    }
}
