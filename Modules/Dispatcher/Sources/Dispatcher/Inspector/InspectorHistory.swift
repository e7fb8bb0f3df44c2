import Foundation
import Tracking

/// What the inspector remembers between requests for Health: the rates, and the last 20
/// diagnostics, each noted the first time it was seen among the source's current problems
/// (and again if it goes away and comes back).
final class InspectorHistory: Sendable {
    /// How many diagnostics are kept.
    static let diagnosticsKept = 20

    private let state = LockedValue(State())

    /// The rates, the diagnostics kept and the conditions seen last.
    private struct State: Sendable {
        var rates = InspectorRates()
        var diagnostics: [DispatcherDiagnostic] = []
        /// The messages of the conditions seen last time.
        var current: Set<String> = []
    }

    /// Creates an empty history.
    init() {}

    /// Notes the conditions holding now, and returns the last 20 diagnostics, oldest first.
    func diagnostics(noting conditions: [DispatcherDiagnostic]) -> [DispatcherDiagnostic] {
        state.withLock { state in
            let now = Set(conditions.map(\.description))
            for condition in conditions where !state.current.contains(condition.description) {
                state.diagnostics.append(condition)
            }
            state.current = now
            if state.diagnostics.count > Self.diagnosticsKept {
                state.diagnostics.removeFirst(state.diagnostics.count - Self.diagnosticsKept)
            }
            return state.diagnostics
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
