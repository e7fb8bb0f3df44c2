import Foundation

/// What an ``IngestWriter`` tells, besides the timeline and the scheduler, about each group of
/// events it committed: for counters and diagnostics. Called on the writer thread.
protocol IngestSink: Sendable {
    /// `group` was committed at `date`, and the store did `outcome` with it (duplicates skipped,
    /// oldest pending events evicted).
    func didPersist(_ group: PersistedGroup, _ outcome: InsertOutcome, at date: Date)
}
