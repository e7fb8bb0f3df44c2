import Foundation
import Tracking

/// Runs an action once, the first time it is fired while its condition holds: how a runtime
/// started before its store could be read learns that it opened (the Dispatcher reports that as
/// a storage diagnostic). The action runs on a queue of its own, never on the thread that fired.
final class StartSignal: Sendable {
    private let armed = LockedValue<(condition: @Sendable () -> Bool, action: @Sendable () -> Void)?>(nil)
    private let queue = DispatchQueue(label: "Analytics.start", qos: .utility)

    /// Sets what to run, and when.
    func set(when condition: @escaping @Sendable () -> Bool, _ action: @escaping @Sendable () -> Void) {
        armed.withLock { $0 = (condition, action) }
    }

    /// Runs the action if it is set, not run yet, and its condition holds.
    func fire() {
        let action = armed.withLock { armed -> (@Sendable () -> Void)? in
            guard let set = armed, set.condition() else { return nil }
            armed = nil
            return set.action
        }
        if let action { queue.async(execute: action) }
    }
}
