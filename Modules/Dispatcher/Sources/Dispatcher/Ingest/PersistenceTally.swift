import Foundation
import Tracking

/// The Dispatcher's ``IngestSink``: counts flagged events and reports evictions, for as long as
/// the Dispatcher runs (across openings of its storage).
///
/// Eviction is reported at most once a second, with the running total: a store at its bound
/// evicts on every insert, and a line per insert would flood the log.
final class PersistenceTally: IngestSink {
    private struct Counts: Sendable {
        var flagged = 0
        var evictedSoFar = 0
        var lastEvictionReport: Date?
    }

    private let counts = LockedValue(Counts())
    private let batch: BatchConfiguration
    private let diagnose: @Sendable (DispatcherDiagnostic) -> Void

    /// A tally reporting evictions against `batch`'s bounds through `diagnose`.
    init(batch: BatchConfiguration, diagnose: @escaping @Sendable (DispatcherDiagnostic) -> Void) {
        self.batch = batch
        self.diagnose = diagnose
    }

    /// Events committed carrying at least one quality flag.
    var flagged: Int { counts.withLock { $0.flagged } }

    func didPersist(_ group: PersistedGroup, _ outcome: InsertOutcome, at date: Date) {
        let evicted = outcome.evicted.count
        let total: Int? = counts.withLock {
            $0.flagged += group.flagged
            guard evicted > 0 else { return nil }
            $0.evictedSoFar += evicted
            guard ($0.lastEvictionReport.map { date.timeIntervalSince($0) >= 1 } ?? true) else { return nil }
            $0.lastEvictionReport = date
            return $0.evictedSoFar
        }
        guard let total else { return }
        diagnose(DispatcherDiagnostic(
            area: .storage,
            message: "evicted the oldest pending events to respect the queue bounds (maxQueueSize \(batch.maxQueueSize), "
                + "maxQueueBytes \(batch.maxQueueBytes)); \(total) evicted so far"))
    }
}
