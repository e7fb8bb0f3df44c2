import Foundation

/// A value behind a lock: the one way the SDK shares mutable state between threads.
///
/// Every read and write of the value goes through ``withLock(_:)``, so the compiler, not a
/// comment, checks that nothing reaches it unlocked. The box is `Sendable` exactly when its
/// value is. (`Synchronization.Mutex` does the same from iOS 18 and macOS 15, above this
/// package's platform floor.)
///
/// A thread can also wait for the value to reach a state: ``withLock(when:deadline:_:)`` and
/// ``wait(until:deadline:)`` sleep until a change made with ``withLockWakingWaiters(_:)``
/// satisfies their predicate, or until their deadline.
///
/// ```swift
/// let count = LockedValue(0)
/// count.withLock { $0 += 1 }
/// count.withLockWakingWaiters { $0 += 1 }
/// count.wait(until: { $0 >= 2 })
/// ```
public final class LockedValue<Value> {
    // An NSCondition is a mutex plus a wait queue: locking it costs what an NSLock costs.
    @usableFromInline let condition = NSCondition()
    // Every access holds `condition`, so the runtime's exclusivity check (one call per access) is skipped.
    @usableFromInline @exclusivity(unchecked) var value: Value

    /// Creates a box holding `value`.
    public init(_ value: Value) { self.value = value }

    /// Runs `body` with the value while holding the lock, and returns what `body` returns.
    /// Waiters are not woken: change what they wait for with ``withLockWakingWaiters(_:)``.
    /// `body` must not call `withLock` on the same box: the lock is not recursive.
    @inlinable
    public func withLock<Returned>(_ body: (inout Value) throws -> Returned) rethrows -> Returned {
        condition.lock()
        defer { condition.unlock() }
        return try body(&value)
    }

    /// Runs `body` like ``withLock(_:)``, then wakes every thread waiting in
    /// ``withLock(when:deadline:_:)`` or ``wait(until:deadline:)`` so it checks its predicate again
    /// (also when `body` throws).
    @inlinable
    public func withLockWakingWaiters<Returned>(_ body: (inout Value) throws -> Returned) rethrows -> Returned {
        condition.lock()
        defer {
            condition.broadcast()
            condition.unlock()
        }
        return try body(&value)
    }

    /// Wakes every thread waiting in ``withLock(when:deadline:_:)`` or ``wait(until:deadline:)``,
    /// for a change made with ``withLock(_:)`` whose body decided that waiters must look again
    /// (so the common case pays no wake-up).
    public func wakeWaiters() {
        condition.lock()
        condition.broadcast()
        condition.unlock()
    }

    /// Waits until `ready` holds for the value or `deadline` passes, then runs `body` with the
    /// value under the same lock (so what `ready` saw is what `body` gets).
    ///
    /// The lock is released while waiting, with no access to the value open; `ready` is checked
    /// again after each wake (``withLockWakingWaiters(_:)``) and at the deadline.
    /// - Parameters:
    ///   - ready: the state to wait for. Called with the lock held; it must not call this box.
    ///   - deadline: the latest moment to wait until; `nil` waits as long as it takes.
    ///   - body: called with the value and whether `ready` held (`false`: the deadline passed).
    /// - Returns: what `body` returns.
    public func withLock<Returned>(
        when ready: (Value) -> Bool,
        deadline: Date? = nil,
        _ body: (inout Value, _ ready: Bool) throws -> Returned
    ) rethrows -> Returned {
        condition.lock()
        defer { condition.unlock() }
        var isReady = ready(value)
        while !isReady {
            if let deadline {
                guard condition.wait(until: deadline) else {
                    isReady = ready(value)
                    break
                }
            } else {
                condition.wait()
            }
            isReady = ready(value)
        }
        return try body(&value, isReady)
    }

    /// Waits until `ready` holds for the value or `deadline` passes (see
    /// ``withLock(when:deadline:_:)``).
    /// - Returns: whether `ready` held; `false` when the deadline passed first.
    @discardableResult
    public func wait(until ready: (Value) -> Bool, deadline: Date? = nil) -> Bool {
        withLock(when: ready, deadline: deadline) { _, isReady in isReady }
    }
}

// The one unchecked conformance of the shared state: every access to `value` holds `condition`.
extension LockedValue: @unchecked Sendable where Value: Sendable {}
