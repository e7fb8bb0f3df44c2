/// What an ``IngestWriter`` has done since it started.
struct IngestStatistics: Sendable, Equatable {
    /// Events accepted by ``IngestWriter/enqueue(_:)`` (written to the journal).
    var enqueued: Int
    /// Events refused (journal full, closed or unwritable, or the event too large).
    var dropped: Int
    /// Events committed to the store (new ones; duplicates not included).
    var persisted: Int
    /// Events the store already had (replays after a crash), ignored.
    var duplicates: Int
    /// Events replayed from journal segments left by an earlier run.
    var replayed: Int
    /// Events evicted from the store by its limits while inserting.
    var evicted: Int
    /// Failed attempts to write to the store.
    var storeFailures: Int
    /// Events lost with a store file deleted or replaced while it was open (see ``EventStore/recreateIfVanished()``).
    var lostWithStore = 0
    /// The last error met, as text.
    var lastError: String?

    /// Creates statistics.
    init(enqueued: Int = 0, dropped: Int = 0, persisted: Int = 0, duplicates: Int = 0, replayed: Int = 0,
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
