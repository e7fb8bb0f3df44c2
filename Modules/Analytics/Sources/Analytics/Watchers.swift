import Foundation

/// What the runtime started watching (privacy changes, diagnostics, notifications, signals),
/// as the actions that stop each; ``stop()`` runs them once.
final class Watchers: @unchecked Sendable {
    // Safe: `stops` is only touched while holding `lock`.
    private let lock = NSLock()
    private var stops: [@Sendable () -> Void] = []

    /// Remembers how to stop one thing.
    func add(_ stop: @escaping @Sendable () -> Void) { lock.withLock { stops.append(stop) } }

    /// Stops everything, in reverse order. Safe to call more than once.
    func stop() {
        let pending = lock.withLock {
            defer { stops.removeAll() }
            return stops
        }
        for stop in pending.reversed() { stop() }
    }

    deinit { stop() }
}
