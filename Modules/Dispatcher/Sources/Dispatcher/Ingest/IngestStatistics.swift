/// What an ``IngestWriter`` has done since it started.
public struct IngestStatistics: Sendable, Equatable {
    /// Events accepted by ``IngestWriter/enqueue(_:)`` (written to the journal).
    public var enqueued: Int
    /// Events refused (journal full, closed or unwritable, or the event too large).
    public var dropped: Int
    /// Events committed to the store (new ones; duplicates not included).
    public var persisted: Int
    /// Events the store already had (replays after a crash), ignored.
    public var duplicates: Int
    /// Events replayed from journal segments left by an earlier run.
    public var replayed: Int
    /// Events evicted from the store by its limits while inserting.
    public var evicted: Int
    /// Failed attempts to write to the store.
    public var storeFailures: Int
    /// The last error met, as text.
    public var lastError: String?

    /// Creates statistics.
    public init(enqueued: Int = 0, dropped: Int = 0, persisted: Int = 0, duplicates: Int = 0, replayed: Int = 0,
                evicted: Int = 0, storeFailures: Int = 0, lastError: String? = nil) {
        self.enqueued = enqueued
        self.dropped = dropped
        self.persisted = persisted
        self.duplicates = duplicates
        self.replayed = replayed
        self.evicted = evicted
        self.storeFailures = storeFailures
        self.lastError = lastError
    }
}
