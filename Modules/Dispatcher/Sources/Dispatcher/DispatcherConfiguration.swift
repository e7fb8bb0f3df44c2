import Foundation

/// Everything a ``Dispatcher`` needs: where to store, how to batch, where to deliver.
///
/// The simplest setup is one line: `DispatcherConfiguration(storePath: path, destination: destination)`.
public struct DispatcherConfiguration: Sendable {
    /// The SQLite store file. Its folder also holds the crash-safe journal (`<file>.journal/`).
    public var storePath: String
    /// Queue bounds and batch sizes.
    public var batch: BatchConfiguration
    /// The moments that trigger a delivery besides the timer and a full batch.
    public var strategy: BatchDispatchStrategy
    /// When to retry and when to give up.
    public var retryPolicy: RetryPolicy
    /// Where events go; `nil` persists only (nothing is delivered until a destination is set).
    public var destination: (any Destination)?
    /// How many events' delivery timelines the monitor keeps for this session.
    public var timelineCapacity: Int
    /// Called for each storage or delivery problem, on a background thread.
    public var onDiagnostic: (@Sendable (DispatcherDiagnostic) -> Void)?
    /// Seconds between attempts to open a store that could not be opened. Default 5.
    public var storageRetryInterval: TimeInterval
    /// How many delivered events the store keeps (newest first) for the monitor. Default 0:
    /// delivered rows simply leave the store, which is fastest. Keeping a history copies each
    /// acknowledged row once more, in the same transaction.
    public var deliveredHistory: Int

    /// Creates a configuration; every argument but the path has a default.
    public init(
        storePath: String,
        destination: (any Destination)? = nil,
        batch: BatchConfiguration = BatchConfiguration(),
        strategy: BatchDispatchStrategy = [.boot, .willEnterForeground, .didEnterBackground, .reachabilityPings],
        retryPolicy: RetryPolicy = RetryPolicy(),
        timelineCapacity: Int = 10_000,
        storageRetryInterval: TimeInterval = 5,
        deliveredHistory: Int = 0,
        onDiagnostic: (@Sendable (DispatcherDiagnostic) -> Void)? = nil
    ) {
        self.storageRetryInterval = storageRetryInterval
        self.deliveredHistory = deliveredHistory
        self.storePath = storePath
        self.destination = destination
        self.batch = batch
        self.strategy = strategy
        self.retryPolicy = retryPolicy
        self.timelineCapacity = timelineCapacity
        self.onDiagnostic = onDiagnostic
    }
}

/// A problem the Dispatcher met and handled without crashing: reported, never thrown at the sender.
public struct DispatcherDiagnostic: Sendable, CustomStringConvertible {
    /// Where it happened.
    public enum Area: String, Sendable {
        /// The SQLite store or the journal.
        case storage
        /// A delivery attempt.
        case delivery
    }

    /// Where it happened.
    public var area: Area
    /// What happened, credentials never included.
    public var message: String
    /// When.
    public var at: Date

    /// Creates a diagnostic.
    public init(area: Area, message: String, at: Date = Date()) {
        self.area = area
        self.message = message
        self.at = at
    }

    /// `storage: …`.
    public var description: String { "\(area.rawValue): \(message)" }
}

/// What ``Dispatcher/drain(timeout:)`` achieved before it returned.
public struct DrainResult: Sendable, Equatable {
    /// Everything sent before the call reached the SQLite store.
    public var persisted: Bool
    /// A delivery attempt finished (or there was no destination or nothing to deliver).
    public var deliveryAttempted: Bool
    /// The timeout passed first.
    public var timedOut: Bool
    /// The delivery round's report, when one ran.
    public var report: DeliveryReport?
}

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
    /// What the store holds now.
    public var store = StoreCounts()

    /// Creates zeroed counters.
    public init() {}
}
