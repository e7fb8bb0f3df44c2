import DataQuality
import Dispatcher
import Foundation
import Tracking

extension Analytics {
    /// Whether the Dispatcher is being made on this thread: a storage problem reported then is a
    /// claim that failed at once (`init` throws), not a background open that failed (retried).
    @TaskLocal static var isClaiming = false

    /// Test seam: run by `init` right after the Dispatcher is made, before its storage is read.
    @TaskLocal static var afterDispatcherStarts: (@Sendable (Dispatcher) -> Void)?

    /// Starts what the runtime observes: diagnostics sent as events, the platform's
    /// notifications, termination signals.
    func startWatching() {
        if configuration.diagnostics.trackAsEvents {
            let diagnostics = sharedDiagnostics
            let forwarder = DiagnosticEventForwarder(
                // Never waiting for room in the gate: a diagnostic may be raised on the queue opening the store.
                plugins: plugins, processors: gate.isOpen ? gate.stack.processors : [NonWaitingGate(gate: gate)],
                burst: configuration.diagnostics.burst, perMinute: configuration.diagnostics.perMinute)
            let token = forwarder.attach(to: diagnostics)
            // The observer holds the forwarder weakly: this keeps it alive until stopped.
            watchers.add { withExtendedLifetime(forwarder) { diagnostics.removeObserver(token) } }
        }
        if configuration.lifecycle.observeNotifications { watchPlatform() }
        if configuration.lifecycle.drainOnTerminationSignals {
            let termination = TerminationDrain(timeout: configuration.lifecycle.drainTimeout) { [weak self] remaining in
                _ = await self?.drain(timeout: remaining)
            }
            watchers.add { termination.stop() }
        }
    }

    /// The contract file at `path`, or a ``ConfigurationError`` naming the field.
    static func loadContract(_ path: String) throws -> DataContract {
        do {
            return try DataContract.load(from: URL(fileURLWithPath: path))
        } catch let error as DataContractError {
            throw ConfigurationError(field: "contract", reason: "\(error)")
        }
    }
}
