import Foundation
import Tracking

/// What the runtime started watching (privacy changes, diagnostics, notifications, signals),
/// as the actions that stop each; ``stop()`` runs them once.
final class Watchers: Sendable {
    private let stops = LockedValue<[@Sendable () -> Void]>([])

    /// Remembers how to stop one thing.
    func add(_ stop: @escaping @Sendable () -> Void) { stops.withLock { $0.append(stop) } }

    /// Stops everything, in reverse order. Safe to call more than once.
    func stop() {
        let pending = stops.withLock { stops in
            defer { stops.removeAll() }
            return stops
        }
        for stop in pending.reversed() { stop() }
    }

    deinit { stop() }
}
