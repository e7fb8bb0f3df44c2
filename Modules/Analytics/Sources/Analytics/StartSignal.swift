import Foundation

/// Runs an action once, the first time it is fired while its condition holds: how a runtime
/// started before its store could be read learns that it opened (the Dispatcher reports that as
/// a storage diagnostic). The action runs on a queue of its own, never on the thread that fired.
final class StartSignal: @unchecked Sendable {
    // Safe: `armed` is only touched while holding `lock`.
    private let lock = NSLock()
    private var armed: (condition: @Sendable () -> Bool, action: @Sendable () -> Void)?
    private let queue = DispatchQueue(label: "Analytics.start", qos: .utility)

    /// Sets what to run, and when.
    func set(when condition: @escaping @Sendable () -> Bool, _ action: @escaping @Sendable () -> Void) {
        lock.withLock { armed = (condition, action) }
    }

    /// Runs the action if it is set, not run yet, and its condition holds.
    func fire() {
        let action = lock.withLock { () -> (@Sendable () -> Void)? in
            guard let armed, armed.condition() else { return nil }
            self.armed = nil
            return armed.action
        }
        if let action { queue.async(execute: action) }
    }
}
