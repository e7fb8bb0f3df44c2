import Foundation

/// A value behind a lock: the one way the SDK shares mutable state between threads.
///
/// Every read and write of the value goes through ``withLock(_:)``, so the compiler, not a
/// comment, checks that nothing reaches it unlocked. The box is `Sendable` exactly when its
/// value is. (`Synchronization.Mutex` does the same from iOS 18 and macOS 15, above this
/// package's platform floor.)
///
/// ```swift
/// let count = LockedValue(0)
/// count.withLock { $0 += 1 }
/// ```
public final class LockedValue<Value> {
    @usableFromInline let lock = NSLock()
    // Every access holds `lock`, so the runtime's exclusivity check (one call per access) is skipped.
    @usableFromInline @exclusivity(unchecked) var value: Value

    /// Creates a box holding `value`.
    public init(_ value: Value) { self.value = value }

    /// Runs `body` with the value while holding the lock, and returns what `body` returns.
    /// `body` must not call `withLock` on the same box: the lock is not recursive.
    @inlinable
    public func withLock<Returned>(_ body: (inout Value) throws -> Returned) rethrows -> Returned {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }
}

// The one unchecked conformance of the shared state: every access to `value` holds `lock`.
extension LockedValue: @unchecked Sendable where Value: Sendable {}
