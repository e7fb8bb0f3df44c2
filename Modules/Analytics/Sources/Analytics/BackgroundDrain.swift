@_spi(Tasks) import Dispatcher
import Foundation
import Tracking

/// Runs the runtime's drain on entering the background inside time asked of the system, and
/// gives that time back exactly once: when the drain finishes, when the system says the time
/// expires, or when the runtime closes, whichever comes first.
///
/// When the time expires first the drain is not stopped: the app is suspended with it, and it
/// carries on when the app runs again (every event is in the journal or the store by then).
final class BackgroundDrain: Sendable {
    /// The reason given to the system, as it shows in its logs.
    static let reason = "Analytics: delivering events before suspension"

    /// The grants held, and whether drains may still start.
    private struct State {
        var leases: [ObjectIdentifier: Lease] = [:]
        var stopped = false
    }

    private let state = LockedValue(State())
    private let provider: any BackgroundTimeProvider

    /// Creates a runner asking `provider` for time.
    init(provider: any BackgroundTimeProvider) {
        self.provider = provider
    }

    /// Asks for background time, runs `drain`, and gives the time back when it returns (or
    /// earlier, see the type). Does nothing once stopped.
    func run(_ drain: @escaping @Sendable () async -> Void) {
        let lease = Lease()
        let started = state.withLock { state in
            guard !state.stopped else { return false }
            state.leases[ObjectIdentifier(lease)] = lease
            return true
        }
        guard started else { return }
        let grant = provider.begin(reason: Self.reason) { [weak self] in self?.finish(lease) }
        lease.attach(grant)
        LibraryTask.start { [weak self] in
            await drain()
            if let self { self.finish(lease) } else { lease.finish() }
        }
    }

    /// Gives back every grant still held and runs no more drains. Safe to call more than once.
    func stop() {
        let held = state.withLock { state in
            state.stopped = true
            defer { state.leases.removeAll() }
            return Array(state.leases.values)
        }
        for lease in held { lease.finish() }
    }

    /// How many grants are held now.
    var heldCount: Int { state.withLock { $0.leases.count } }

    private func finish(_ lease: Lease) {
        _ = state.withLock { $0.leases.removeValue(forKey: ObjectIdentifier(lease)) }
        lease.finish()
    }

    /// One grant, ended exactly once whatever the order of `attach` and the `finish` calls.
    private final class Lease: Sendable {
        /// The grant while held, and whether the lease finished.
        private struct State {
            var grant: (any BackgroundTimeGrant)?
            var finished = false
        }

        private let state = LockedValue(State())

        /// Holds the grant, or ends it at once when the lease finished already.
        func attach(_ grant: any BackgroundTimeGrant) {
            let endNow = state.withLock { state in
                if state.finished { return true }
                state.grant = grant
                return false
            }
            if endNow { grant.end() }
        }

        /// Ends the grant if it is held; later calls do nothing.
        func finish() {
            let held: (any BackgroundTimeGrant)? = state.withLock { state in
                state.finished = true
                defer { state.grant = nil }
                return state.grant
            }
            held?.end()
        }
    }
}
