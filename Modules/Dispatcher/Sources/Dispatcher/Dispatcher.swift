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
    /// The journey of each event of this session.
    public let journey: JourneyLog
    private let overflow: MemoryOverflow
    private let lock = NSLock()
    /// Held while events move from memory to the journal, so moves never overlap or reorder.
    private let moveLock = NSLock()
    private var state = State()

    private struct State {
        var backend: DispatcherBackend?
        var storage = StorageState.available
        var counters = DispatcherCounters()
        var pendingSinceRequest = 0
        var persistedSoFar = 0
        var reopenTimer: LibraryTimer?
        var closed = false
        /// Whether a thread is moving what waits in memory into the journal.
        var moverRunning = false
        /// Why the journal last refused an event, while it does.
        var journalProblem: String?
        var lastRefusalReport: Date?
    }

    /// Opens the store (setting a corrupt file aside), replays what a killed run left in the
    /// journal, and starts the writer and, with a destination, delivery.
    ///
    /// When the store cannot be opened at all (a read-only folder, a full disk), the Dispatcher
    /// still starts: events wait in memory up to ``BatchConfig/overflowQueueSize``, the problem
    /// is reported through ``DispatcherConfiguration/onDiagnostic`` and ``storage``, and opening
    /// is retried every ``DispatcherConfiguration/storageRetryInterval`` seconds.
    ///
    /// One store has one writer: when another process (an app extension, a second run) has the
    /// store open, this Dispatcher is refused at once rather than sharing it, because two writers
    /// would replay, count and claim the same rows. Give each process its own store path.
    ///
    /// A store path naming a file that is not an event store (a text file, another application's
    /// database: see ``EventStore``) is a configuration mistake, not a passing fault: `init`
    /// throws ``StoreError/notAStore(path:reason:)`` and the file is left untouched. (Should such
    /// a file appear later, while opening is retried, ``storage`` turns
    /// ``StorageState/unavailable(reason:)`` with that reason instead.)
    /// - Throws: ``ConfigurationError`` for an impossible configuration;
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
        journey = JourneyLog(capacity: max(1, configuration.journeyCapacity))
        overflow = MemoryOverflow(capacity: configuration.batch.overflowQueueSize)
        if try !openBackend(refusingInUse: true) { scheduleReopen() }
    }

    /// Tries to open the storage; on success hands over what waited in memory.
    /// - Parameter refusingInUse: throw ``StoreError/inUse(path:pid:)`` instead of waiting for the other writer.
    @discardableResult
    private func openBackend(refusingInUse: Bool = false) throws -> Bool {
        let box = WeakBox<Dispatcher>()
        box.value = self
        let backend: DispatcherBackend
        do {
            backend = try DispatcherBackend.open(
                configuration: configuration,
                onPersisted: { events, outcome in box.value?.didPersist(events, outcome) },
                onAttempt: { attempt in box.value?.didAttempt(attempt) },
                onReport: { report in box.value?.didDeliver(report) })
        } catch {
            if refusingInUse, case StoreError.inUse = error { throw error }
            if refusingInUse, case StoreError.notAStore = error { throw error }
            let reason = "\(error)"
            let changed = lock.withLock {
                defer { state.storage = .unavailable(reason: reason) }
                return state.storage != .unavailable(reason: reason)
            }
            if changed {
                diagnose(.storage, "the store cannot be opened, events wait in memory (up to \(overflow.capacity)): \(reason)")
            }
            return false
        }
        if let recovered = backend.store.recoveredFrom {
            diagnose(.storage, "the store file was unreadable and was set aside as \(recovered); a fresh store was opened")
        }
        let wasUnavailable = lock.withLock {
            defer {
                state.backend = backend
                state.storage = .available
            }
            return state.storage != .available
        }
        let waiting = overflow.count
        if moveFromMemory(to: backend) > 0 { startMover(backend) }
        if wasUnavailable { diagnose(.storage, "the store is available again; \(waiting) events waiting in memory move to it") }
        if configuration.strategy.contains(.boot), backend.store.counts().pending > 0 { backend.scheduler?.request() }
        return true
    }

    /// Retries opening the storage every ``DispatcherConfiguration/storageRetryInterval`` on a
    /// timer and a queue of the library's own (opening blocks), until it opens or this closes.
    private func scheduleReopen() {
        let interval = configuration.storageRetryInterval
        let box = WeakBox<Dispatcher>()
        box.value = self
        let timer = LibraryTimer(after: interval, repeating: interval, queue: DispatchQueue(label: "Dispatcher.reopen")) {
            guard let self = box.value, !self.isClosed else { return }
            if (try? self.openBackend()) == true { self.lock.withLock { self.state.reopenTimer }?.cancel() }
        }
        lock.withLock { state.reopenTimer = timer }
    }

    private var isClosed: Bool { lock.withLock { state.closed } }

    private var backend: DispatcherBackend? { lock.withLock { state.backend } }

    /// Whether the storage can be written now.
    public var storage: StorageState { lock.withLock { state.storage } }

    /// The SQLite store, once it could be opened (query it for the monitor).
    public var store: EventStore? { backend?.store }

    private func diagnose(_ area: DispatcherDiagnostic.Area, _ message: String) {
        configuration.onDiagnostic?(DispatcherDiagnostic(area: area, message: message))
    }

    // MARK: - Sending

    /// Makes the event durable and returns at once; delivery happens later.
    /// - Returns: a receipt whose form is `journal`, or `memory` while the journal cannot take
    ///   events (the store is not open, the journal's byte budget or the disk is full: they move
    ///   to the journal, in order, once it can); `nil` when the event was refused, which is
    ///   counted by ``RefusalReason`` in ``counters`` and reported.
    public func send(_ event: TrackedEvent) -> Receipt? {
        accept(EncodedEvent(event)).receipt(for: event)
    }

    /// Makes several events durable under one journal lock.
    /// - Returns: a receipt for each event accepted (see ``send(_:)``).
    public func send(contentsOf events: [TrackedEvent]) -> [Receipt] {
        let encoded = events.map(EncodedEvent.init)
        var written = 0
        if let backend, !overflow.isHolding {
            let result = backend.ingest.write(contentsOf: encoded)
            written = result.written
            if let error = result.error { journalRefused(error) }
        }
        let placements = Array(repeating: Placement.journal, count: written) + encoded[written...].map(accept)
        return zip(placements, events).compactMap { $0.receipt(for: $1) }
    }

    /// Where an event went.
    private enum Placement {
        case journal, memory, refused

        /// The receipt for `event` placed here; `nil` when it was refused.
        func receipt(for event: TrackedEvent) -> Receipt? {
            let form: String
            switch self {
            case .journal: form = "journal"
            case .memory: form = "memory"
            case .refused: return nil
            }
            return Receipt(plugin: "dispatcher", eventID: event.id, handledAt: event.timestamp, form: form)
        }
    }

    /// Puts `event` in the journal, or in memory behind what already waits there, or refuses it.
    private func accept(_ event: EncodedEvent) -> Placement {
        let (backend, closed) = lock.withLock { (state.backend, state.closed) }
        if closed {
            refuse(.closed, detail: "send after close()")
            return .refused
        }
        if let backend, !overflow.isHolding {
            do {
                try backend.ingest.write(event)
                return .journal
            } catch {
                switch error {
                case .recordTooLarge, .closed:
                    refuse(error == .closed ? .closed : .tooLarge, detail: error.description)
                    return .refused
                case .full, .io:
                    journalRefused(error)
                }
            }
        }
        guard overflow.hold(event) else {
            refuse(.noRoom, detail: lock.withLock { state.journalProblem ?? "storage \(state.storage)" })
            return .refused
        }
        // The store may have opened meanwhile: make sure someone moves this event on.
        if let backend = self.backend { startMover(backend) }
        return .memory
    }

    /// Notes that the journal refused an event that memory is about to hold, and reports it once.
    private func journalRefused(_ error: JournalError) {
        let text = error.description
        let first = lock.withLock {
            defer { state.journalProblem = text }
            return state.journalProblem == nil
        }
        if first {
            diagnose(.storage, "the journal cannot take events (\(text)); they wait in memory (up to \(overflow.capacity)) and move to the journal once it can")
        }
    }

    /// Counts one refused event and reports refusals, at most once a second.
    private func refuse(_ reason: RefusalReason, detail: String) {
        let now = Date()
        let refusedSoFar: Int? = lock.withLock {
            state.counters.refused += 1
            state.counters.refusals[reason, default: 0] += 1
            state.counters.lastRefusal = "\(reason): \(detail)"
            guard (state.lastRefusalReport.map { now.timeIntervalSince($0) >= 1 } ?? true) else { return nil }
            state.lastRefusalReport = now
            return state.counters.refused
        }
        if let refusedSoFar { diagnose(.storage, "refused events (\(reason): \(detail)); \(refusedSoFar) refused so far") }
    }

    /// Starts, unless running, a thread that moves what waits in memory into the journal every
    /// 20 ms until memory is empty or the Dispatcher closes. A paused or full journal refuses
    /// such a move at once, without a system call, so this never spins.
    private func startMover(_ backend: DispatcherBackend) {
        let start = lock.withLock {
            guard !state.moverRunning, !state.closed else { return false }
            state.moverRunning = true
            return true
        }
        guard start else { return }
        let thread = Thread { [weak self] in
            while let self {
                let held = self.moveFromMemory(to: backend)
                // Decided under the lock a sender takes to start a mover, after its event is held:
                // either this sees the event, or the sender sees this mover gone and starts one.
                let done = self.lock.withLock {
                    guard self.state.closed || (held == 0 && self.overflow.count == 0) else { return false }
                    self.state.moverRunning = false
                    return true
                }
                if done { return }
                Thread.sleep(forTimeInterval: 0.02)
            }
        }
        thread.name = "Dispatcher.overflow"
        thread.start()
    }

    /// Hands what waits in memory to the store's journal, in order.
    /// - Returns: how many still wait in memory.
    @discardableResult
    private func moveFromMemory(to backend: DispatcherBackend) -> Int {
        moveLock.lock()
        defer { moveLock.unlock() }
        var waiting = overflow.beginMove()[...]
        var moved = 0
        while !waiting.isEmpty {
            let (written, error) = backend.ingest.write(contentsOf: Array(waiting))
            moved += written
            waiting = waiting.dropFirst(written)
            guard let error else { break }
            if case .recordTooLarge = error {
                refuse(.tooLarge, detail: error.description)
                waiting = waiting.dropFirst()
                continue
            }
            break
        }
        let held = overflow.finishMove(returning: Array(waiting))
        let recovered = lock.withLock {
            state.counters.movedFromMemory += moved
            guard held == 0, waiting.isEmpty, state.journalProblem != nil else { return false }
            state.journalProblem = nil
            return true
        }
        if recovered { diagnose(.storage, "the journal takes events again; what waited in memory moved to it") }
        return held
    }

    /// Moves what waits in memory to the journal, retrying every 20 ms until nothing is left or
    /// `deadline` passes. Blocking: call it off Swift's cooperative pool.
    /// - Returns: whether memory is empty.
    private func moveAllFromMemory(to backend: DispatcherBackend, deadline: Date) -> Bool {
        while moveFromMemory(to: backend) > 0 {
            guard Date() < deadline else { return false }
            Thread.sleep(forTimeInterval: 0.02)
        }
        return true
    }

    // MARK: - Delivery control

    /// Persists everything sent so far, then delivers now, and returns what happened.
    ///
    /// Delivers at once even to events that wait for a retry after a network error or a 5xx
    /// (the retry policy's backoff does not delay an explicit flush), but honours the
    /// collector's `Retry-After`: when it ends within `timeout`, the flush waits for it (costing
    /// no CPU) and then delivers; otherwise it returns at once with
    /// ``DeliveryStopReason/backingOff`` and ``DeliveryReport/earliestNextAttempt``.
    /// Returns within about `timeout` even while every thread of Swift's cooperative pool is
    /// blocked (the caller's own executor must be able to run it).
    /// - Parameter timeout: the longest this may take, in seconds.
    @discardableResult
    public func flush(timeout: TimeInterval = 60) async -> DeliveryReport {
        let deadline = Date().addingTimeInterval(timeout)
        guard let backend else {
            var report = DeliveryReport()
            report.stopReason = .queueError
            report.lastError = "storage \(storage)"
            return report
        }
        _ = await Self.offload { [self] in
            moveAllFromMemory(to: backend, deadline: deadline) && backend.ingest.waitUntilPersisted(timeout: max(0, deadline.timeIntervalSinceNow))
        }
        guard let scheduler = backend.scheduler else { return DeliveryReport() }
        // A round already running (automatic, or a request in flight) may outlast the timeout.
        guard let report = await withTimeout(max(0, deadline.timeIntervalSinceNow), { await scheduler.flush(deadline: deadline) }) else {
            var report = DeliveryReport()
            report.stopReason = .deadline
            report.lastError = "flush timed out after \(timeout) s while a delivery round was running"
            return report
        }
        didDeliver(report)
        return report
    }

    /// Returns once everything sent before the call is persisted and a delivery attempt has
    /// finished, or when `timeout` seconds passed, saying which. For background tasks and
    /// graceful shutdown. The attempt is an explicit flush (see ``flush(timeout:)``); like it,
    /// this returns on time even while Swift's cooperative pool is saturated.
    public func drain(timeout: TimeInterval) async -> DrainResult {
        let deadline = Date().addingTimeInterval(timeout)
        guard let backend else { return DrainResult(persisted: false, deliveryAttempted: false, timedOut: false, report: nil) }
        let persisted = await Self.offload { [self] in
            moveAllFromMemory(to: backend, deadline: deadline) && backend.ingest.waitUntilPersisted(timeout: max(0, deadline.timeIntervalSinceNow))
        }
        guard persisted else { return DrainResult(persisted: false, deliveryAttempted: false, timedOut: true, report: nil) }
        guard let scheduler = backend.scheduler else {
            return DrainResult(persisted: true, deliveryAttempted: true, timedOut: false, report: nil)
        }
        let remaining = deadline.timeIntervalSinceNow
        guard remaining > 0 else { return DrainResult(persisted: true, deliveryAttempted: false, timedOut: true, report: nil) }
        // A request in flight may outlast the deadline: stop waiting for it then.
        guard let report = await withTimeout(remaining, { await scheduler.flush(deadline: deadline) }) else {
            return DrainResult(persisted: true, deliveryAttempted: false, timedOut: true, report: nil)
        }
        didDeliver(report)
        return DrainResult(persisted: true, deliveryAttempted: true, timedOut: report.stopReason == .deadline, report: report)
    }

    /// Stops automatic deliveries (events are still persisted) until ``resume()``.
    public func pause() { backend?.scheduler?.pause() }

    /// Allows deliveries again and delivers what was asked for meanwhile; also ends the pause a
    /// refused endpoint (HTTP 401, 403, 404) caused, once its cause is fixed.
    public func resume() { backend?.scheduler?.resume() }

    /// Whether deliveries are paused: by ``pause()``, or because the collector refused the
    /// endpoint or the credentials (``DeliveryStopReason/endpointRefused``).
    public var isPaused: Bool { backend?.scheduler?.isPaused ?? false }

    /// Tells the Dispatcher about a lifecycle or reachability change; it delivers when its
    /// ``BatchDispatchStrategy`` asks for that moment.
    public func handle(_ event: LifecycleEvent) {
        guard let scheduler = backend?.scheduler else { return }
        let strategy = configuration.strategy
        switch event {
        case .willEnterForeground:
            if strategy.contains(.willEnterForeground) { scheduler.request() }
        case .didEnterBackground:
            if strategy.contains(.didEnterBackground) { scheduler.request() }
        case .reachable:
            scheduler.setReachable(true)
            if strategy.contains(.reachabilityPings) { scheduler.request() }
        case .unreachable:
            scheduler.setReachable(false)
        }
    }

    // MARK: - Inspection

    /// Counters since start, with the store's current counts.
    public var counters: DispatcherCounters {
        var counters = lock.withLock { state.counters }
        counters.buffered = overflow.count
        counters.sent = counters.buffered + counters.refused
        guard let backend else { return counters }
        let statistics = backend.ingest.statistics
        counters.sent += statistics.enqueued
        counters.persisted = statistics.persisted
        counters.duplicates = statistics.duplicates
        counters.store = backend.store.counts()
        counters.evicted = counters.store.evicted
        return counters
    }

    /// Events in the store with their status and this session's journey, for the monitor.
    ///
    /// Events made durable in the journal but not yet written to the store are included, as
    /// pending and in journal (see ``EventStore/query(_:)``).
    public func records(_ query: StoreQuery = StoreQuery()) throws -> [MonitorRecord] {
        guard let store else { return [] }
        return try store.query(query, includingJournal: true).map { MonitorRecord($0, journey: journey.journey(of: $0.event.id)) }
    }

    /// Deletes the rejected events (they are otherwise kept); returns how many.
    @discardableResult
    public func deleteRejected() throws -> Int { try store?.deleteRejected() ?? 0 }

    /// Returns the rejected events to pending with their attempts reset (once what made the
    /// collector refuse them is fixed) and asks for a delivery; returns how many.
    @discardableResult
    public func requeueRejected() throws -> Int {
        let requeued = try store?.requeueRejected() ?? 0
        if requeued > 0 { backend?.scheduler?.request() }
        return requeued
    }

    /// Releases the events of `category` held for consent: they become pending and are delivered.
    /// - Returns: how many were released.
    @discardableResult
    public func releaseHeld(category: String) async throws -> Int {
        guard let backend else { return 0 }
        let released = try await Self.offload { () -> Result<Int, any Error> in
            _ = backend.ingest.waitUntilPersisted(timeout: 10)
            return Result { try backend.store.releaseHeld(category: category) }
        }.get()
        if released > 0 { backend.scheduler?.request() }
        return released
    }

    /// Deletes the events of `category` held for consent (consent was denied).
    /// - Returns: how many were deleted.
    @discardableResult
    public func deleteHeld(category: String) async throws -> Int {
        guard let backend else { return 0 }
        return try await Self.offload { () -> Result<Int, any Error> in
            _ = backend.ingest.waitUntilPersisted(timeout: 10)
            return Result { try backend.store.deleteHeld(category: category) }
        }.get()
    }

    /// Deletes every stored event, the journey, what waits in memory and the store's metadata.
    public func purge() async throws {
        overflow.removeAll()
        journey.removeAll()
        guard let backend else { return }
        try await Self.offload { () -> Result<Void, any Error> in
            _ = backend.ingest.waitUntilPersisted(timeout: 10)
            return Result { try backend.store.purge() }
        }.get()
    }

    /// Persists what is pending, stops delivery and the writer, and closes the store, waiting
    /// at most about `timeout` seconds for each.
    public func close(timeout: TimeInterval = 10) async {
        let (first, backend, timer) = lock.withLock {
            defer { state.closed = true }
            return (!state.closed, state.backend, state.reopenTimer)
        }
        guard first else { return }
        timer?.cancel()
        guard let backend else { return }
        // A request in flight may take long: wait for it at most `timeout` (its events stay in
        // flight in the store and are released to pending on the next open).
        if let scheduler = backend.scheduler { _ = await withTimeout(timeout) { await scheduler.close() } }
        _ = await Self.offload { [self] in
            // What waits in memory is lost with the process: give the journal a last chance.
            moveFromMemory(to: backend)
            let closed = backend.ingest.close(timeout: timeout)
            backend.store.close()
            return closed
        }
    }

    // MARK: - Callbacks

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
        let initialCount = configuration.strategy.contains(.initialEvents) ? configuration.batch.initialEventsCount : 0
        let wantsDelivery = lock.withLock {
            state.counters.flagged += flagged
            state.pendingSinceRequest += events.count
            // The first `initialEventsCount` events of a run are delivered at once.
            let initial = state.persistedSoFar < initialCount
            state.persistedSoFar += events.count
            let full = state.pendingSinceRequest >= configuration.batch.deliverySize
            if full { state.pendingSinceRequest = 0 }
            return full || initial
        }
        if wantsDelivery { backend?.scheduler?.request() }
        if !outcome.evicted.isEmpty {
            diagnose(.storage, "evicted \(outcome.evicted.count) oldest pending events to respect the queue bounds")
        }
    }

    private func didAttempt(_ attempt: DeliveryAttempt) {
        let summary = attempt.decision.summary(statusCode: attempt.statusCode)
        // One journal entry per attempt number (a batch usually shares one), not per event.
        for (number, entries) in Dictionary(grouping: attempt.events, by: \.number) {
            journey.record(JourneyStep(kind: .attempt, at: attempt.at, attempt: number, detail: summary), for: entries.map(\.id))
        }
        // Counted here, per settled attempt, so that rounds whose report nobody waits for
        // (a flush that timed out, an automatic round) still count.
        let count = attempt.events.count
        switch attempt.decision {
        case .acknowledge:
            journey.record(JourneyStep(kind: .delivered, at: attempt.at), for: attempt.ids)
            lock.withLock { state.counters.delivered += count }
        case .reject(let reason):
            journey.record(JourneyStep(kind: .rejected, at: attempt.at, detail: reason), for: attempt.ids)
            lock.withLock { state.counters.rejected += count }
        case .retry:
            lock.withLock { state.counters.retried += count }
        case .split, .pause:
            break
        }
    }

    private func didDeliver(_ report: DeliveryReport) {
        // Once, for the round whose request was refused (not for flushes answered while paused).
        if report.stopReason == .endpointRefused {
            if report.requests > 0 {
                diagnose(.delivery, (report.lastError ?? "the collector refused the endpoint") + "; delivery paused until resume()")
            }
        } else if let error = report.lastError, report.retried + report.rejected > 0 || report.stopReason == .queueError {
            diagnose(.delivery, error)
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
        case .pause(let reason): return status + "paused: " + reason
        }
    }
}
