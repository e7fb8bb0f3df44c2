import Foundation

/// How an ``IngestWriter`` moves events from its journal into the store.
struct IngestConfiguration: Sendable, Equatable {
    /// The most events per SQLite transaction (group commit).
    var batchSize: Int
    /// The first wait before retrying after the store failed; doubles up to ``maxRetryInterval``.
    var retryInterval: TimeInterval
    /// The longest wait between retries.
    var maxRetryInterval: TimeInterval
    /// Segment size and the bound on events waiting for the store.
    var journal: JournalConfiguration

    /// Creates a configuration.
    /// - Parameters:
    ///   - batchSize: events per transaction. Defaults to 1,000.
    ///   - retryInterval: first retry wait after a store failure. Defaults to 0.25 s.
    ///   - maxRetryInterval: longest retry wait. Defaults to 5 s.
    ///   - journal: the journal's shape. Defaults to 16 segments of 4 MiB.
    init(batchSize: Int = 1_000, retryInterval: TimeInterval = 0.25, maxRetryInterval: TimeInterval = 5,
                journal: JournalConfiguration = JournalConfiguration()) {
        self.batchSize = max(1, batchSize)
        self.retryInterval = max(0.001, retryInterval)
        self.maxRetryInterval = max(self.retryInterval, maxRetryInterval)
        self.journal = journal
    }
}
