import Foundation
import Tracking

/// What the inspector remembers between requests for Health: the rates, and the last 20
/// diagnostics, each condition noted the first time it was seen among the source's current
/// problems (and again if it goes away and comes back); while it holds, its one entry follows
/// its latest message (a count that grows does not add entries).
final class InspectorHistory: Sendable {
    /// How many diagnostics are kept.
    static let diagnosticsKept = 20

    private let state = LockedValue(State())

    /// The rates, the diagnostics kept and the conditions seen last.
    private struct State: Sendable {
        var rates = InspectorRates()
        /// The conditions noted, oldest first, each with its ``InspectorCondition/key``.
        var diagnostics: [(key: String, diagnostic: DispatcherDiagnostic)] = []
        /// The keys of the conditions seen last time.
        var current: Set<String> = []
    }

    /// Creates an empty history.
    init() {}

    /// Notes the conditions holding now, and returns the last 20 diagnostics, oldest first.
    func diagnostics(noting conditions: [InspectorCondition]) -> [DispatcherDiagnostic] {
        state.withLock { state in
            for condition in conditions {
                if state.current.contains(condition.key),
                   let index = state.diagnostics.lastIndex(where: { $0.key == condition.key }) {
                    // Still holding: the entry keeps when it was first seen, and takes the new text.
                    state.diagnostics[index].diagnostic.message = condition.diagnostic.message
                } else if !state.current.contains(condition.key) {
                    state.diagnostics.append((condition.key, condition.diagnostic))
                }
            }
            state.current = Set(conditions.map(\.key))
            if state.diagnostics.count > Self.diagnosticsKept {
                state.diagnostics.removeFirst(state.diagnostics.count - Self.diagnosticsKept)
            }
            return state.diagnostics.map(\.diagnostic)
        }
    }

    /// Records the source's running totals (once a second, while a stream is open).
    func recordRates(sent: Int, delivered: Int) {
        state.withLock { $0.rates.record(sent: sent, delivered: delivered) }
    }

    /// Forgets the rates' baseline (polling stopped).
    func restartRates() {
        state.withLock { $0.rates.restart() }
    }

    /// The per-second samples of the last five minutes.
    var rates: [InspectorRates.Sample] { state.withLock { $0.rates.recent() } }
}
