import Dispatcher
import Foundation
import Tracking

/// Turns a ``ReachabilityMonitor``'s reports into ``Dispatcher/LifecycleEvent/reachable`` and
/// ``Dispatcher/LifecycleEvent/unreachable``, once per change: a report equal to the last one
/// is dropped, so a repeated "satisfied" asks for no second delivery. The network counts as
/// reachable at the start, as it does for the Dispatcher, so a first "satisfied" is no change.
final class ReachabilityForwarder: Sendable {
    private let reachable = LockedValue(true)
    private let monitor: any ReachabilityMonitor

    /// Starts `monitor`; `handle` is told each change.
    init(monitor: any ReachabilityMonitor, handle: @escaping @Sendable (LifecycleEvent) -> Void) {
        self.monitor = monitor
        // Held weakly, so that `deinit` (which stops the monitor) runs.
        monitor.start { [weak self] reachable in
            guard let self, self.changed(to: reachable) else { return }
            handle(reachable ? .reachable : .unreachable)
        }
    }

    /// Stops the monitor. Safe to call more than once.
    func stop() { monitor.stop() }

    deinit { monitor.stop() }

    private func changed(to value: Bool) -> Bool {
        reachable.withLock { reachable in
            defer { reachable = value }
            return reachable != value
        }
    }
}
