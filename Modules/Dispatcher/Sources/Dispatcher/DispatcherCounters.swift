/// The Dispatcher's counters since it started, plus the store's own.
public struct DispatcherCounters: Sendable, Equatable {
    /// Events handed to ``Dispatcher/send(_:)``.
    public var sent = 0
    /// Events refused at ``Dispatcher/send(_:)``: neither the journal nor memory took them.
    public var refused = 0
    /// ``refused`` by reason.
    public var refusals: [RefusalReason: Int] = [:]
    /// The last refusal, with its reason and cause, as text.
    public var lastRefusal: String?
    /// Events waiting in memory because the journal cannot take them now (the store is not
    /// open, the journal's byte budget or the disk is full).
    public var buffered = 0
    /// Events that waited in memory and were handed to the store once it opened.
    public var movedFromMemory = 0
    /// Events written to the SQLite store.
    public var persisted = 0
    /// Events acknowledged by the destination.
    public var delivered = 0
    /// Event deliveries scheduled for a retry.
    public var retried = 0
    /// Events moved to the rejected state.
    public var rejected = 0
    /// Events evicted by the queue bounds.
    public var evicted = 0
    /// Events that arrived carrying at least one quality flag.
    public var flagged = 0
    /// Events ignored because their id was already stored.
    public var duplicates = 0
    /// What the journal could not replay, by cause: damage found in what an earlier run left
    /// when the store opened, and records cut from a segment while running (each also reported
    /// through ``DispatcherConfiguration/onDiagnostic``).
    public var journalLosses: [JournalLossCause: Int] = [:]
    /// Events lost with a store file deleted or replaced while the Dispatcher had it open: what
    /// it held when that was noticed (a new store is created in its place, and reported through
    /// ``DispatcherConfiguration/onDiagnostic``).
    public var lostWithStore = 0
    /// What the store holds now.
    public var store = StoreCounts()

    /// Creates zeroed counters.
    public init() {}
}
