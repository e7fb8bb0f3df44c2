import DataQuality
@_spi(Tasks) import Dispatcher
import Foundation
import Tracking

/// Applies privacy decisions to what the Dispatcher holds: granted consent releases the held
/// events of a category (they are delivered), denied consent deletes them, opt-out deletes every
/// stored event, a purge deletes everything stored.
///
/// Privacy observers are called synchronously; the store work runs in tasks that ``settle()``
/// waits for, so a decision takes effect for new events at once and for stored ones soon after.
/// A decision is saved before it is applied, so a process that dies in between would leave it
/// unapplied: ``reconcile(_:)`` applies the saved state again at every start (each application
/// is idempotent and costs what it touches). What each change did is kept as a line of ``log``.
final class ConsentBridge: Sendable {
    /// The changes under way and what the applied ones did.
    private struct State {
        var tasks: [Task<Void, Never>] = []
        /// The latest change's task: each change waits for the one before, so they apply in order.
        var last: Task<Void, Never>?
        var log: [String] = []
    }

    private let state = LockedValue(State())
    private let dispatcher: Dispatcher
    /// Where a change that could not be applied is reported.
    private let diagnostics: Diagnostics?

    init(dispatcher: Dispatcher, diagnostics: Diagnostics? = nil) {
        self.dispatcher = dispatcher
        self.diagnostics = diagnostics
    }

    /// Handles one privacy change. An opt-out's deletion covers the events made before this
    /// call (an id made now bounds them), not those sent after a later opt-in.
    func apply(_ change: PrivacyChange) {
        let dispatcher = self.dispatcher
        let boundary = change == .optedOut ? EventID.make() : nil
        state.withLock { state in
            let previous = state.last
            let task = LibraryTask.start {
                await previous?.value
                await self.run(change, boundary: boundary, on: dispatcher)
            }
            state.last = task
            state.tasks.append(task)
        }
    }

    /// Runs `work` once every change handed over so far has been applied.
    func afterChanges(_ work: @escaping @Sendable () -> Void) {
        state.withLock { state in
            let previous = state.last
            let task = LibraryTask.start {
                await previous?.value
                work()
            }
            state.last = task
            state.tasks.append(task)
        }
    }

    /// Applies one change to the stored events and notes what it did.
    private func run(_ change: PrivacyChange, boundary: UUID?, on dispatcher: Dispatcher) async {
        do {
            switch change {
            case .consent(let category, .granted):
                let count = try await dispatcher.releaseHeld(category: category)
                note("consent granted for \(category): \(count) held events released")
            case .consent(let category, .denied):
                let count = try await dispatcher.deleteHeld(category: category)
                note("consent denied for \(category): \(count) held events deleted")
            case .optedOut:
                try await dispatcher.deleteAllEvents(before: boundary)
                note("opted out: every stored event deleted")
            case .purged:
                try await dispatcher.purge()
                note("purged: every stored event deleted")
            default:
                break
            }
        } catch {
            note("privacy change \(change) could not be applied: \(error)")
            diagnostics?.record(.storage, code: "privacy_not_applied", message: "privacy change \(change) could not be applied: \(error)")
        }
    }

    /// Applies the saved privacy state again (at start): opted out deletes every stored event;
    /// each granted or denied category releases or deletes its held events.
    func reconcile(_ privacy: PrivacyControls) {
        if privacy.isOptedOut { apply(.optedOut) }
        for (category, decision) in privacy.consentDecisions.sorted(by: { $0.key < $1.key })
        where decision == .granted || decision == .denied {
            apply(.consent(category: category, decision: decision))
        }
    }

    /// Waits until every change so far has been applied; returns what was done.
    func settle() async -> [String] {
        let pending = state.withLock { state in
            defer { state.tasks.removeAll() }
            return state.tasks
        }
        for task in pending { await task.value }
        return state.withLock { $0.log }
    }

    private func note(_ line: String) { state.withLock { $0.log.append(line) } }
}
