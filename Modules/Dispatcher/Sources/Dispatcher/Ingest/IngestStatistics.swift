/// What an ``IngestWriter`` has done since it started. Events the journal refused are not here:
/// the Dispatcher counts them (``DispatcherCounters/refused``), or keeps them in memory.
struct IngestStatistics: Sendable, Equatable {
    /// Events written to the journal (``IngestWriter/write(_:)``, ``IngestWriter/write(contentsOf:)``).
    var journalled: Int
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
    init(journalled: Int = 0, persisted: Int = 0, duplicates: Int = 0, replayed: Int = 0,
         evicted: Int = 0, storeFailures: Int = 0, lastError: String? = nil) {
        self.journalled = journalled
        self.persisted = persisted
        self.duplicates = duplicates
        self.replayed = replayed
        self.evicted = evicted
        self.storeFailures = storeFailures
        self.lastError = lastError
    }
}
