import DataQuality
import Dispatcher
import Foundation

/// Applies privacy decisions to what the Dispatcher holds: granted consent releases the held
/// events of a category (they are delivered), denied consent deletes them, a purge deletes
/// everything stored.
///
/// Privacy observers are called synchronously; the store work runs in tasks that ``settle()``
/// waits for, so a decision takes effect for new events at once and for stored ones soon after.
/// What each change did is kept as a line of ``log``.
final class ConsentBridge: @unchecked Sendable {
    // Safe: `tasks` and `log` are only touched while holding `lock`.
    private let lock = NSLock()
    private var tasks: [Task<Void, Never>] = []
    private var log: [String] = []
    private let dispatcher: Dispatcher

    init(dispatcher: Dispatcher) { self.dispatcher = dispatcher }

    /// Handles one privacy change.
    func apply(_ change: PrivacyChange) {
        let dispatcher = self.dispatcher
        let task = Task {
            do {
                switch change {
                case .consent(let category, .granted):
                    let count = try await dispatcher.releaseHeld(category: category)
                    self.note("consent granted for \(category): \(count) held events released")
                case .consent(let category, .denied):
                    let count = try await dispatcher.deleteHeld(category: category)
                    self.note("consent denied for \(category): \(count) held events deleted")
                case .purged:
                    try await dispatcher.purge()
                    self.note("purged: every stored event deleted")
                default:
                    break
                }
            } catch {
                self.note("privacy change \(change) could not be applied: \(error)")
            }
        }
        lock.withLock { tasks.append(task) }
    }

    /// Waits until every change so far has been applied; returns what was done.
    func settle() async -> [String] {
        let pending = lock.withLock {
            defer { tasks.removeAll() }
            return tasks
        }
        for task in pending { await task.value }
        return lock.withLock { log }
    }

    private func note(_ line: String) { lock.withLock { log.append(line) } }
}
