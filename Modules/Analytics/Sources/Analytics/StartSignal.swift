import Foundation
import Tracking

/// Runs an action once, the first time it is fired while its condition holds: how a runtime
/// whose store was not open at start (opening in the background, or unreadable before the first
/// unlock) learns that it opened. The action runs on a queue of its own, never on the thread that
/// fired; ``wait()`` and ``wait(until:orFiredAfter:)`` wait until it has run.
final class StartSignal: Sendable {
    private struct State: Sendable {
        var armed: (condition: @Sendable () -> Bool, action: @Sendable () -> Void)?
        /// Whether nothing is left to wait for: nothing was set, or the action ran.
        var done = true
        var waiters: [CheckedContinuation<Void, Never>] = []
        /// How many times it was fired, its condition holding or not.
        var fires = 0
    }

    private let state = LockedValue(State())
    private let queue = DispatchQueue(label: "Analytics.start", qos: .utility)

    /// Sets what to run, and when.
    func set(when condition: @escaping @Sendable () -> Bool, _ action: @escaping @Sendable () -> Void) {
        state.withLock {
            $0.armed = (condition, action)
            $0.done = false
        }
    }

    /// Runs the action if it is set, not run yet, and its condition holds; wakes the threads in
    /// ``wait(until:orFiredAfter:)`` either way.
    func fire() {
        let action = state.withLockWakingWaiters { state -> (@Sendable () -> Void)? in
            state.fires += 1
            guard let set = state.armed, set.condition() else { return nil }
            state.armed = nil
            return set.action
        }
        guard let action else { return }
        queue.async { [state] in
            action()
            let waiters = state.withLockWakingWaiters { state in
                state.done = true
                defer { state.waiters.removeAll() }
                return state.waiters
            }
            for waiter in waiters { waiter.resume() }
        }
    }

    /// Whether the action is set and has not run yet.
    var isPending: Bool { state.withLock { !$0.done } }

    /// Waits until the action has run; returns at once when none is set.
    func wait() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let now = state.withLock { state -> Bool in
                if state.done { return true }
                state.waiters.append(continuation)
                return false
            }
            if now { continuation.resume() }
        }
    }

    /// How many times it was fired so far (see ``wait(until:orFiredAfter:)``).
    var fireCount: Int { state.withLock { $0.fires } }

    /// Blocks until the action has run, it is fired again after `count` fires, or `deadline`.
    /// - Returns: whether the action has run (or none is set).
    @discardableResult
    func wait(until deadline: Date, orFiredAfter count: Int) -> Bool {
        state.wait(until: { $0.done || $0.fires != count }, deadline: deadline)
        return state.withLock { $0.done }
    }
}
