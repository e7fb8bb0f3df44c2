import Foundation
import Tracking

// What the inspector reads from a live Dispatcher beyond its public API.
extension Dispatcher {
    /// The event `id` as the store (or its journal) holds it; nil when unknown or the store is not open.
    func inspectorEvent(_ id: UUID) throws -> StoredEvent? {
        try store?.inspectorEvent(id)
    }

    /// The last diagnostics reported through ``DispatcherConfiguration/onDiagnostic``, oldest first.
    var recentDiagnostics: [DispatcherDiagnostic] { state.withLock { $0.recentDiagnostics } }

    /// Why deliveries are paused, nil when they are not.
    var inspectorPauseReason: String? {
        guard isPaused else { return nil }
        if state.withLock({ $0.hold.paused }) { return "paused by pause()" }
        return "the collector refused the endpoint or the credentials (HTTP 401, 403 or 404); resume() once fixed"
    }

    /// The problems that hold now, each with a stable kind: storage unavailable, the journal refusing
    /// events, events lost, delivery paused by a refused endpoint.
    func inspectorConditions(_ counters: DispatcherCounters) -> [InspectorCondition] {
        var found: [InspectorCondition] = []
        if case .unavailable(let reason) = storage {
            found.append(InspectorCondition("store-unavailable", area: .storage, message: "the store cannot be opened, events wait in memory: \(reason)"))
        }
        if let problem = state.withLock({ $0.journalProblem }) {
            found.append(InspectorCondition("journal-refuses", area: .storage, message: "the journal refuses events: \(problem)"))
        }
        if let refusal = counters.lastRefusal {
            found.append(InspectorCondition("events-refused", area: .storage, message: "\(counters.refused) events refused; last: \(refusal)"))
        }
        let losses = counters.journalLosses.values.reduce(0, +)
        if losses > 0 {
            let causes = counters.journalLosses.map { "\($0.key): \($0.value)" }.sorted().joined(separator: ", ")
            found.append(InspectorCondition("journal-losses", area: .storage, message: "the journal lost \(losses) records (\(causes))"))
        }
        if counters.lostWithStore > 0 {
            found.append(InspectorCondition(
                "lost-with-store", area: .storage, message: "\(counters.lostWithStore) events lost with a store file deleted or replaced"))
        }
        if let reason = inspectorPauseReason, reason != "paused by pause()" {
            found.append(InspectorCondition("delivery-paused", area: .delivery, message: "delivery paused: \(reason)"))
        }
        return found
    }
}
