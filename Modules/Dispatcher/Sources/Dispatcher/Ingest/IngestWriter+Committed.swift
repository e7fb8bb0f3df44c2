import Foundation

// What the writer does after each commit: it records, tells and asks; it decides nothing.
extension IngestWriter {
    /// Records the group's `persisted` (and evicted events' `evicted`) steps, tells the sink, and
    /// asks the scheduler with ``DeliveryRequest/committed(_:)`` (or ``DeliveryRequest/replayed(_:)``).
    func didCommit(_ group: PersistedGroup, _ outcome: InsertOutcome, replaying: Bool) {
        let now = Date()
        if let timeline {
            timeline.record(TimelineStep(kind: .persisted, at: now), for: group.ids(skipping: outcome.duplicates))
            if !outcome.evicted.isEmpty { timeline.record(TimelineStep(kind: .evicted, at: now), for: outcome.evicted) }
        }
        sink?.didPersist(group, outcome, at: now)
        let count = group.ids.count
        scheduler?.request(replaying ? .replayed(count) : .committed(count))
    }
}
