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
/// - **Bounded.** ``BatchConfig`` caps the store by count and bytes; evictions are counted.
///
/// ```swift
/// let dispatcher = try Dispatcher(configuration: DispatcherConfiguration(
///     storePath: storeURL.path,
///     destination: try SegmentDestination(endpoint: url, writeKey: key)))
/// let reporter = EventReporter<Cart>(plugins: [dispatcher])
/// ```
public final class Dispatcher: EventReporterPlugin, @unchecked Sendable {
    // Safe: the `let`s are thread-safe objects; `state` is only touched while holding `lock`.
    /// The configuration it was made with.
    public let configuration: DispatcherConfiguration
    /// The SQLite store (query it for the monitor).
    public let store: EventStore
    /// The journey of each event of this session.
    public let journey: JourneyLog
    private let ingest: IngestWriter
    private let scheduler: DeliveryScheduler?
    private let lock = NSLock()
    private var state = State()

    private struct State {
        var counters = DispatcherCounters()
        var pendingSinceRequest = 0
        var closed = false
    }

    /// Opens the store (setting a corrupt file aside), replays what a killed run left in the
    /// journal, and starts the writer and, with a destination, delivery.
    /// - Throws: ``ConfigurationError`` for an impossible configuration; ``StoreError`` or
    ///   ``JournalError`` when the store's folder cannot be used at all.
    public init(configuration: DispatcherConfiguration) throws {
        try configuration.batch.validate()
        self.configuration = configuration
        let journey = JourneyLog(capacity: max(1, configuration.journeyCapacity))
        self.journey = journey
        let directory = (configuration.storePath as NSString).deletingLastPathComponent
        if !directory.isEmpty {
            try? FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        }
        let store = try EventStore(
            path: configuration.storePath,
            limits: StoreLimits(maxEvents: configuration.batch.maxQueueSize, maxBytes: configuration.batch.maxQueueBytes))
        self.store = store
        _ = try store.releaseAllInFlight()
        let diagnose = configuration.onDiagnostic
        if let recovered = store.recoveredFrom {
            diagnose?(DispatcherDiagnostic(area: .storage, message: "the store file was unreadable and was set aside as \(recovered); a fresh store was opened"))
        }

        let ingestBox = WeakBox<Dispatcher>()
        ingest = try IngestWriter(
            store: store,
            configuration: IngestConfiguration(journal: Self.journalShape(for: configuration.batch)),
            onPersisted: { events, outcome in ingestBox.value?.didPersist(events, outcome) },
            onError: { error in diagnose?(DispatcherDiagnostic(area: .storage, message: "\(error)")) }
        )

        if let destination = configuration.destination {
            let worker = DeliveryWorker(
                queue: store, destination: destination,
                configuration: DeliveryWorkerConfiguration(deliverySize: configuration.batch.deliverySize, retryPolicy: configuration.retryPolicy),
                observer: { attempt in ingestBox.value?.didAttempt(attempt) }
            )
            scheduler = DeliveryScheduler(worker: worker, flushInterval: configuration.batch.flushInterval) { report in
                ingestBox.value?.didDeliver(report)
            }
        } else {
            scheduler = nil
        }
        ingestBox.value = self
        if configuration.strategy.contains(.boot), store.counts().pending > 0 { scheduler?.request() }
    }

    private static func journalShape(for batch: BatchConfig) -> JournalConfiguration {
        // The journal holds what waits for the store; size it for overflowQueueSize events of
        // about 512 bytes, at least two segments.
        let segmentBytes = 4 << 20
        let segments = max(2, (batch.overflowQueueSize * 512 + segmentBytes - 1) / segmentBytes + 1)
        return JournalConfiguration(segmentBytes: segmentBytes, maxSegments: segments)
    }

    // MARK: - Sending

    /// Makes the event durable and returns at once; delivery happens later.
    /// - Returns: a receipt whose form is `journal`, or `nil` when the event was dropped (the
    ///   journal is full or unwritable; the drop is counted and reported).
    public func send(_ event: TrackedEvent) -> Receipt? {
        guard ingest.enqueue(EncodedEvent(event)) else { return nil }
        return Receipt(plugin: "dispatcher", eventID: event.id, handledAt: event.timestamp, form: "journal")
    }

    /// Makes several events durable under one journal lock.
    public func send(contentsOf events: [TrackedEvent]) -> [Receipt] {
        let accepted = ingest.enqueue(contentsOf: events.map(EncodedEvent.init))
        return events.prefix(accepted).map { Receipt(plugin: "dispatcher", eventID: $0.id, handledAt: $0.timestamp, form: "journal") }
    }

    // MARK: - Delivery control

    /// Persists everything sent so far, then delivers now, and returns what happened.
    /// - Parameter timeout: the longest this may take, in seconds.
    @discardableResult
    public func flush(timeout: TimeInterval = 60) async -> DeliveryReport {
        let deadline = Date().addingTimeInterval(timeout)
        _ = await waitUntilPersisted(timeout: timeout)
        guard let scheduler else { return DeliveryReport() }
        let report = await scheduler.flush(deadline: deadline)
        didDeliver(report)
        return report
    }

    /// Returns once everything sent before the call is persisted and a delivery attempt has
    /// finished, or when `timeout` seconds passed, saying which. For background tasks and
    /// graceful shutdown.
    public func drain(timeout: TimeInterval) async -> DrainResult {
        let deadline = Date().addingTimeInterval(timeout)
        let persisted = await waitUntilPersisted(timeout: timeout)
        guard persisted else { return DrainResult(persisted: false, deliveryAttempted: false, timedOut: true, report: nil) }
        guard let scheduler, Date() < deadline else {
            return DrainResult(persisted: true, deliveryAttempted: scheduler == nil, timedOut: scheduler != nil, report: nil)
        }
        let report = await scheduler.flush(deadline: deadline)
        didDeliver(report)
        let timedOut = report.stopReason == .deadline
        return DrainResult(persisted: true, deliveryAttempted: true, timedOut: timedOut, report: report)
    }

    /// Stops automatic deliveries (events are still persisted) until ``resume()``.
    public func pause() { scheduler?.pause() }

    /// Allows deliveries again and delivers what was asked for meanwhile.
    public func resume() { scheduler?.resume() }

    /// Whether deliveries are paused.
    public var isPaused: Bool { scheduler?.isPaused ?? false }

    /// Tells the Dispatcher about a lifecycle or reachability change; it delivers when its
    /// ``BatchDispatchStrategy`` asks for that moment.
    public func handle(_ event: LifecycleEvent) {
        let strategy = configuration.strategy
        switch event {
        case .willEnterForeground:
            if strategy.contains(.willEnterForeground) { scheduler?.request() }
        case .didEnterBackground:
            if strategy.contains(.didEnterBackground) { scheduler?.request() }
        case .reachable:
            scheduler?.setReachable(true)
            if strategy.contains(.reachabilityPings) { scheduler?.request() }
        case .unreachable:
            scheduler?.setReachable(false)
        }
    }

    // MARK: - Inspection

    /// Counters since start, with the store's current counts.
    public var counters: DispatcherCounters {
        let statistics = ingest.statistics
        var counters = lock.withLock { state.counters }
        counters.sent = statistics.enqueued + statistics.dropped
        counters.dropped = statistics.dropped
        counters.persisted = statistics.persisted
        counters.duplicates = statistics.duplicates
        counters.store = store.counts()
        counters.evicted = counters.store.evicted
        return counters
    }

    /// Events in the store with their status and this session's journey, for the monitor.
    public func records(_ query: StoreQuery = StoreQuery()) throws -> [MonitorRecord] {
        try store.query(query).map { MonitorRecord($0, journey: journey.journey(of: $0.event.id)) }
    }

    /// Deletes the rejected events (they are otherwise kept); returns how many.
    @discardableResult
    public func deleteRejected() throws -> Int { try store.deleteRejected() }

    /// Deletes every stored event, the journey and the store's metadata.
    public func purge() async throws {
        _ = await waitUntilPersisted(timeout: 10)
        try store.purge()
        journey.removeAll()
    }

    /// Persists what is pending, stops delivery and the writer, and closes the store.
    public func close(timeout: TimeInterval = 10) async {
        let first = lock.withLock {
            defer { state.closed = true }
            return !state.closed
        }
        guard first else { return }
        await scheduler?.close()
        let ingest = self.ingest
        _ = await Self.offload { ingest.close(timeout: timeout) }
        store.close()
    }

    // MARK: - Callbacks

    private func waitUntilPersisted(timeout: TimeInterval) async -> Bool {
        let ingest = self.ingest
        return await Self.offload { ingest.waitUntilPersisted(timeout: timeout) }
    }

    /// Runs blocking work on a thread outside Swift's cooperative pool.
    private static func offload<Value: Sendable>(_ work: @escaping @Sendable () -> Value) async -> Value {
        await withCheckedContinuation { continuation in
            Thread.detachNewThread { continuation.resume(returning: work()) }
        }
    }

    private func didPersist(_ events: [EncodedEvent], _ outcome: InsertOutcome) {
        let now = Date()
        let flagged = events.reduce(0) { $0 + ($1.flagsJSON.count > 2 ? 1 : 0) }
        let duplicates = Set(outcome.duplicates)
        journey.record(JourneyStep(kind: .persisted, at: now), for: events.lazy.map(\.id).filter { !duplicates.contains($0) })
        if !outcome.evicted.isEmpty { journey.record(JourneyStep(kind: .evicted, at: now), for: outcome.evicted) }
        let wantsDelivery = lock.withLock {
            state.counters.flagged += flagged
            state.pendingSinceRequest += events.count
            let full = state.pendingSinceRequest >= configuration.batch.deliverySize
            if full { state.pendingSinceRequest = 0 }
            return full
        }
        // The first `initialEventsCount` events of a run are delivered at once.
        let persistedBefore = ingest.statistics.persisted - events.count
        let initial = configuration.strategy.contains(.initialEvents) && persistedBefore < configuration.batch.initialEventsCount
        if wantsDelivery || initial { scheduler?.request() }
        if !outcome.evicted.isEmpty {
            configuration.onDiagnostic?(DispatcherDiagnostic(area: .storage, message: "evicted \(outcome.evicted.count) oldest pending events to respect the queue bounds"))
        }
    }

    private func didAttempt(_ attempt: DeliveryAttempt) {
        for entry in attempt.events {
            journey.record(JourneyStep(kind: .attempt, at: attempt.at, attempt: entry.number, detail: attempt.decision.summary(statusCode: attempt.statusCode)), for: [entry.id])
        }
        switch attempt.decision {
        case .acknowledge: journey.record(JourneyStep(kind: .delivered, at: attempt.at), for: attempt.ids)
        case .reject(let reason): journey.record(JourneyStep(kind: .rejected, at: attempt.at, detail: reason), for: attempt.ids)
        case .retry, .split: break
        }
    }

    private func didDeliver(_ report: DeliveryReport) {
        lock.withLock {
            state.counters.delivered += report.delivered
            state.counters.retried += report.retried
            state.counters.rejected += report.rejected
        }
        if let error = report.lastError, report.retried + report.rejected > 0 || report.stopReason == .queueError {
            configuration.onDiagnostic?(DispatcherDiagnostic(area: .delivery, message: error))
        }
    }
}

/// A weak reference that can be filled in after the closures capturing it are made.
private final class WeakBox<Value: AnyObject>: @unchecked Sendable {
    // Safe: `stored` is only touched while holding `lock`.
    private let lock = NSLock()
    private weak var stored: Value?
    var value: Value? {
        get { lock.withLock { stored } }
        set { lock.withLock { stored = newValue } }
    }
}

extension RetryDecision {
    /// A short text for the journey: `HTTP 200 delivered`, `HTTP 503 retry`, `rejected: …`.
    func summary(statusCode: Int?) -> String {
        let status = statusCode.map { "HTTP \($0) " } ?? ""
        switch self {
        case .acknowledge: return status + "delivered"
        case .retry(_, let reason): return status + "retry: " + reason
        case .split(let reason): return status + "split: " + reason
        case .reject(let reason): return status + "rejected: " + reason
        }
    }
}
