import Foundation
import Tracking

/// The production plugin: persists first, batches, and delivers to the analytics pipeline.
///
/// Guarantees:
/// - **Never blocks the caller.** ``send(_:)`` encodes the event and copies it into a
///   memory-mapped journal under a short lock; SQLite is written by a background thread in group
///   commits. Sending and delivering never wait on each other.
/// - **Durable once `send` returns**, against the process being killed (`kill -9`): the journal
///   lives in the kernel's page cache, which outlives the process. On power loss, events sent
///   in the last moments before the operating system wrote its cache back may be lost (the
///   journal is not `fsync`ed per event; the store uses WAL with `synchronous = NORMAL`).
/// - **At-least-once delivery.** A row leaves the store only after the destination acknowledged
///   it; every event keeps its id as the idempotency key. One request in flight per destination.
/// - **Bounded.** ``BatchConfiguration`` caps the store by count and bytes; evictions are counted.
///
/// ```swift
/// let dispatcher = try Dispatcher(configuration: DispatcherConfiguration(
///     storePath: storeURL.path,
///     destination: try SegmentDestination(endpoint: url, writeKey: key)))
/// let reporter = EventReporter<Cart>(plugins: [dispatcher])
/// ```
public final class Dispatcher: EventReporterPlugin, Sendable {
    /// The configuration it was made with.
    public let configuration: DispatcherConfiguration
    /// The delivery timeline of each event of this session.
    let timeline: EventTimeline
    let overflow: MemoryOverflow
    /// What the ingest writer tells about each commit: flagged events, evictions.
    let tally: PersistenceTally
    /// Taken while events move from memory to the journal, so moves never overlap or reorder.
    let moveLock = LockedValue(())
    /// Where every attempt to open the storage runs (the timer, ``retryOpeningStorage(isolation:)``,
    /// ``resumeStorageAfterSuspension(isolation:)``): one at a time, never on the caller's thread.
    let reopenQueue = BlockingQueue(label: "Dispatcher.reopen")
    /// The test seam of `ProtectedData`, read when this started.
    let protectedDataOverride = ProtectedData.availableOverride
    /// The deletions for privacy not yet applied, on disk.
    let erasureMarker: ErasureMarker
    let state: LockedValue<State>

    struct State: Sendable {
        var backend: DispatcherBackend?
        var storage = StorageState.available
        var counters = DispatcherCounters()
        /// What calls for a delivery round, carried from one opening of the storage to the next.
        var demand: DeliveryDemand
        /// ``pause()`` and reachability as the host last asked, handed to each new scheduler.
        var hold = DeliveryHold()
        /// Whether ``requestDelivery()`` was called while the storage was not open: a round is
        /// asked for once it opens.
        var deliveryOwed = false
        var reopenTimer: LibraryTimer?
        var closed = false
        /// Between ``releaseStorageForSuspension(timeout:isolation:)`` and ``resumeStorageAfterSuspension(isolation:)``.
        var suspended = false
        /// Whether the last failure to open was protected data being unavailable (see `ProtectedData`).
        var waitsForProtectedData = false
        /// Whether a thread is moving what waits in memory into the journal.
        var moverRunning = false
        /// Why the journal last refused an event, while it does.
        var journalProblem: String?
        var lastRefusalReport: Date?
        /// Deletions for privacy asked for while the storage was not open (see `PendingErasure`).
        var pendingErasure = PendingErasure()
        /// Deletions an opening took from ``pendingErasure`` and has not applied yet.
        var applyingErasure = PendingErasure()
        /// The last ``recentDiagnosticsKept`` diagnostics reported, oldest first (for the inspector).
        var recentDiagnostics: [DispatcherDiagnostic] = []
        /// The shared context of the last event sent and its encoded form: the events of a
        /// session share one instance, so a sender finds it under the lock it takes anyway.
        var lastShared: (shared: SharedContext, encoded: EncodedSharedContext)?
        /// Whether memory (``overflow``) may hold events or be moving them: set before anything
        /// is buffered, cleared only once a move left memory empty with no buffering underway.
        /// When unset, memory holds nothing, and a sender need not ask it.
        var memoryMayHoldEvents = false
        /// Senders between noting ``memoryMayHoldEvents`` and buffering their event.
        var buffersUnderway = 0
    }

    /// Opens the store (setting a corrupt file aside), replays what a killed run left in the
    /// journal, and starts the writer and, with a destination, delivery.
    ///
    /// When the store cannot be opened at all (a read-only folder, a full disk, or on iOS a start
    /// before the first unlock, when protected files answer `EPERM`), the Dispatcher still
    /// starts: events wait in memory up to ``BatchConfiguration/overflowQueueSize``, the problem
    /// is reported through ``DispatcherConfiguration/onDiagnostic`` and ``storage``, and opening
    /// is retried every ``DispatcherConfiguration/storageRetryInterval`` seconds, or at once by
    /// ``retryOpeningStorage(isolation:)``.
    ///
    /// With ``DispatcherConfiguration/opensStorageInBackground``, `init` only claims the store
    /// (refusing what is listed below) and opens it on a queue of its own: ``storage`` is
    /// ``StorageState/opening`` until then, and ``storageReady(isolation:)`` waits for it.
    ///
    /// One store has one writer: when another process (an app extension, a second run) has the
    /// store open, this Dispatcher is refused at once rather than sharing it, because two writers
    /// would replay, count and claim the same rows. Give each process its own store path.
    ///
    /// A store path naming a file that is not an event store (a text file, another application's
    /// database: see the store's signature) is a configuration mistake, not a passing fault: `init`
    /// throws ``StoreError/notAStore(path:reason:)`` and the file is left untouched. (Should such
    /// a file appear later, while opening is retried, ``storage`` turns
    /// ``StorageState/unavailable(reason:)`` with that reason instead.)
    /// - Throws: `ConfigurationError` for an impossible configuration;
    ///   ``StoreError/inUse(path:pid:)`` ("store in use by process N") when another writer has
    ///   the store open; ``StoreError/notAStore(path:reason:)`` when the store path holds a file
    ///   that is not an event store. Nothing else.
    public init(configuration: DispatcherConfiguration) throws {
        try configuration.batch.validate()
        try configuration.retryPolicy.validate()
        if !configuration.storageRetryInterval.isFinite || configuration.storageRetryInterval <= 0 {
            throw ConfigurationError(field: "storageRetryInterval", reason: "must be a positive number of seconds, got \(configuration.storageRetryInterval)")
        }
        self.configuration = configuration
        erasureMarker = ErasureMarker(storePath: configuration.storePath)
        timeline = EventTimeline(capacity: max(1, configuration.timelineCapacity))
        overflow = MemoryOverflow(capacity: configuration.batch.overflowQueueSize)
        let onDiagnostic = configuration.onDiagnostic
        tally = PersistenceTally(batch: configuration.batch) { onDiagnostic?($0) }
        state = LockedValue(State(demand: DeliveryDemand(configuration.batch, strategy: configuration.strategy)))
        if configuration.opensStorageInBackground {
            try startOpeningInBackground()
        } else if try !openBackend(refusingInUse: true) {
            scheduleReopen()
        }
    }

    /// Tries to open the storage; on success hands over what waited in memory.
    /// - Parameters:
    ///   - refusingInUse: throw ``StoreError/inUse(path:pid:)`` instead of waiting for the other writer.
    ///   - claim: the claim on the store taken beforehand, if any.
    ///   - beforeInstall: test seam, run once the store opened, before it is put in place.
    @discardableResult
    func openBackend(refusingInUse: Bool = false, claim: StoreClaim? = nil, beforeInstall: (@Sendable () -> Void)? = nil) throws -> Bool {
        let (open, blocked, demand, hold) = state.withLock { state in
            (state.backend != nil, state.closed || state.suspended, state.demand, state.hold)
        }
        if open || blocked {
            claim?.lock.release()
            return open
        }
        let box = WeakBox<Dispatcher>()
        box.value = self
        let backend: DispatcherBackend
        let wasUnavailable: Bool
        let owed: Bool
        do {
            let marked = try erasureMarker.read()
            let erasing = state.withLock { state in takeErasure(&state, adding: marked) }
            backend = try DispatcherBackend.open(
                configuration: configuration, claim: claim, erasing: erasing, timeline: timeline, sink: tally, demand: demand, hold: hold,
                onAttempt: { attempt in box.value?.didAttempt(attempt) },
                onReport: { report in box.value?.didDeliver(report) })
            reportOpened(backend)
            beforeInstall?()
            guard let installed = try install(backend) else {
                // Closed or released while opening: give the files back at once.
                _ = backend.ingest.close(timeout: 1)
                backend.store.close()
                return false
            }
            (wasUnavailable, owed) = installed
        } catch {
            // Not applied: kept for the next attempt, with what was asked for meanwhile.
            state.withLock { state in
                state.pendingErasure.merge(state.applyingErasure)
                state.applyingErasure = PendingErasure()
            }
            claim?.lock.release()
            if refusingInUse, case StoreError.inUse = error { throw error }
            if refusingInUse, case StoreError.notAStore = error { throw error }
            let reason = "\(error)"
            let protected = ProtectedData.isUnavailable(error, availableOverride: protectedDataOverride)
            let changed = state.withLock { state in
                defer {
                    state.storage = .unavailable(reason: reason)
                    state.waitsForProtectedData = protected
                }
                return state.storage != .unavailable(reason: reason)
            }
            if changed {
                diagnose(.storage, "the store cannot be opened, events wait in memory (up to \(overflow.capacity)): \(reason)")
            }
            return false
        }
        let waiting = overflow.count
        if moveFromMemory(to: backend) > 0 { startMover(backend) }
        if wasUnavailable { diagnose(.storage, "the store is available again; \(waiting) events waiting in memory move to it") }
        backend.scheduler?.request(.opened(pending: backend.store.counts().pending))
        if owed { requestOwedDelivery(backend) }
        return true
    }

    /// Retries opening the storage every ``DispatcherConfiguration/storageRetryInterval`` on a
    /// timer and a queue of the library's own (opening blocks), until it opens or this closes.
    func scheduleReopen() {
        let interval = configuration.storageRetryInterval
        let box = WeakBox<Dispatcher>()
        box.value = self
        let reopenQueue = self.reopenQueue
        let timer = LibraryTimer(after: interval, repeating: interval) {
            reopenQueue.start {
                guard let self = box.value, !self.isClosed else { return }
                if (try? self.openBackend()) == true { self.state.withLock { state in state.reopenTimer }?.cancel() }
            }
        }
        let previous = state.withLock { state in
            defer { state.reopenTimer = timer }
            return state.reopenTimer
        }
        previous?.cancel()
    }

    /// Tries to open the storage now rather than at the next retry, and returns the resulting
    /// ``storage`` state. Call it when the reason it could not open has gone: on iOS when
    /// `UIApplication.protectedDataDidBecomeAvailableNotification` arrives (a start before the
    /// first unlock). Does nothing while the storage is open, released for suspension, or closed;
    /// the retry timer keeps running until the storage opens. Opening blocks (it replays the
    /// journal): it runs on a queue of the Dispatcher's own, never on the caller's thread.
    @discardableResult
    public func retryOpeningStorage(isolation: isolated (any Actor)? = #isolation) async -> StorageState {
        return await LibraryTask.run {
            await reopenQueue.run { [self] in
                if (try? openBackend()) == true { state.withLock { state in state.reopenTimer }?.cancel() }
                return storage
            }
        }
    }

    var isClosed: Bool { state.withLock { state in state.closed } }

    var backend: DispatcherBackend? { state.withLock { state in state.backend } }

    /// Whether the storage can be written now.
    public var storage: StorageState { state.withLock { state in state.storage } }

    /// Whether the storage is unavailable because the device's protected data is (iOS: the app
    /// started before the first unlock after boot): it opens by itself once the device is
    /// unlocked (at the next retry, or at once through ``retryOpeningStorage(isolation:)``).
    public var isWaitingForProtectedData: Bool { state.withLock { state in state.waitsForProtectedData } }

    /// The SQLite store, once it could be opened.
    var store: EventStore? { backend?.store }

    func diagnose(_ area: DispatcherDiagnostic.Area, _ message: String) {
        let diagnostic = DispatcherDiagnostic(area: area, message: message)
        state.withLock { state in
            state.recentDiagnostics.append(diagnostic)
            if state.recentDiagnostics.count > Self.recentDiagnosticsKept { state.recentDiagnostics.removeFirst() }
        }
        configuration.onDiagnostic?(diagnostic)
    }

    /// How many diagnostics ``State/recentDiagnostics`` keeps.
    static let recentDiagnosticsKept = 20
}
