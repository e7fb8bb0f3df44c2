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
    /// Whether the Dispatcher opens its store on a queue of its own instead of in `init`. Default
    /// `false`. With `true`, `init` only checks the store path and claims the store (what it
    /// throws is the same), then returns with ``StorageState/opening``: events wait in memory,
    /// in order, until the store, its journal and delivery are ready (``Dispatcher/storageReady(isolation:)``),
    /// and a deletion for privacy asked for meanwhile is applied to what the store holds before
    /// any of it can be delivered.
    public var opensStorageInBackground = false

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
