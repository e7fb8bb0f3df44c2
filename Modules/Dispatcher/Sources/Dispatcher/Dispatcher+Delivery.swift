import Foundation
import Tracking

extension Dispatcher {
    /// Persists everything sent before the call, then runs a delivery round now, and returns
    /// what happened: the one call that waits for delivery (for tests, background tasks and
    /// graceful shutdown). To ask for a delivery without waiting, call ``requestDelivery()``.
    ///
    /// Delivers at once even to events that wait for a retry after a network error or a 5xx
    /// (the retry policy's backoff does not delay an explicit round), but honours the
    /// collector's `Retry-After`: when it ends within `timeout`, the round waits for it (costing
    /// no CPU) and then delivers; otherwise the report says ``DeliveryStopReason/backingOff``
    /// with ``DeliveryReport/earliestNextAttempt``. Returns within about `timeout` even while
    /// every thread of Swift's cooperative pool is blocked (the caller's own executor must be
    /// able to run it).
    /// - Parameters:
    ///   - timeout: the longest this may take, in seconds.
    ///   - isolation: the caller's actor, where the call returns; the compiler passes it.
    @discardableResult
    public func drain(timeout: TimeInterval = 60, isolation: isolated (any Actor)? = #isolation) async -> DrainResult {
        return await LibraryTask.run {
            let deadline = Date().addingTimeInterval(timeout)
            if isOpening { await storageReady() }
            guard let backend else {
                return DrainResult(persisted: false, deliveryAttempted: false, timedOut: false,
                                   report: Self.report(.queueError, "storage \(storage)"))
            }
            let persisted = await Self.offload { [self] in
                moveAllFromMemory(to: backend, deadline: deadline) && backend.ingest.waitUntilPersisted(timeout: max(0, deadline.timeIntervalSinceNow))
            }
            let timedOut = Self.report(.deadline, "drain timed out after \(timeout) s")
            guard persisted else { return DrainResult(persisted: false, deliveryAttempted: false, timedOut: true, report: timedOut) }
            guard let scheduler = backend.scheduler else {
                return DrainResult(persisted: true, deliveryAttempted: true, timedOut: false, report: DeliveryReport())
            }
            let remaining = deadline.timeIntervalSinceNow
            guard remaining > 0 else { return DrainResult(persisted: true, deliveryAttempted: false, timedOut: true, report: timedOut) }
            // A round already running (automatic, or a request in flight) may outlast the deadline.
            guard let report = await withTimeout(remaining, { await scheduler.deliverNow(deadline: deadline) }) else {
                let running = Self.report(.deadline, "drain timed out after \(timeout) s while a delivery round was running")
                return DrainResult(persisted: true, deliveryAttempted: false, timedOut: true, report: running)
            }
            didDeliver(report)
            return DrainResult(persisted: true, deliveryAttempted: true, timedOut: report.stopReason == .deadline, report: report)
        }
    }

    /// A report of no round, stopped for `reason`.
    private static func report(_ reason: DeliveryStopReason, _ error: String) -> DeliveryReport {
        var report = DeliveryReport()
        report.stopReason = reason
        report.lastError = error
        return report
    }

    /// Asks for a delivery round soon when events are pending, and returns at once: what the
    /// `boot` strategy does once the store opens. A runtime that must apply saved privacy
    /// decisions before anything an earlier run left is sent leaves `boot` out of the
    /// configuration and calls this once they are applied. To wait for the round, call
    /// ``drain(timeout:isolation:)``.
    public func requestDelivery() {
        let backend: DispatcherBackend? = state.withLock { state in
            if state.backend == nil, !state.closed { state.deliveryOwed = true }
            return state.backend
        }
        guard let backend else { return }
        backend.scheduler?.request(.caller(events: backend.store.counts().pending))
    }

    /// Makes the ``requestDelivery()`` called while the storage was not open, once what waited
    /// in memory then has reached the store (at most 10 s later), on a queue of its own.
    func requestOwedDelivery(_ backend: DispatcherBackend) {
        guard let scheduler = backend.scheduler else { return }
        BlockingQueue(label: "Dispatcher.owedDelivery").start { [self] in
            let deadline = Date().addingTimeInterval(10)
            _ = moveAllFromMemory(to: backend, deadline: deadline)
            _ = backend.ingest.waitUntilPersisted(timeout: max(0, deadline.timeIntervalSinceNow))
            // Not after the storage was released or closed meanwhile: that store is gone.
            guard state.withLock({ $0.backend?.store === backend.store }) else { return }
            scheduler.request(.caller(events: backend.store.counts().pending))
        }
    }

    /// Stops automatic deliveries (events are still persisted) until ``resume()``; also while
    /// the storage is opening or released for suspension: no round runs once it opens.
    public func pause() {
        let scheduler = state.withLock { state in
            state.hold.paused = true
            return state.backend?.scheduler
        }
        scheduler?.pause()
    }

    /// Allows deliveries again and delivers what was asked for meanwhile; also ends the pause a
    /// refused endpoint (HTTP 401, 403, 404) caused, once its cause is fixed.
    public func resume() {
        let scheduler = state.withLock { state in
            state.hold.paused = false
            return state.backend?.scheduler
        }
        scheduler?.resume()
    }

    /// Whether deliveries are paused: by ``pause()``, or because the collector refused the
    /// endpoint or the credentials (``DeliveryStopReason/endpointRefused``).
    public var isPaused: Bool {
        guard configuration.destination != nil else { return false }
        let (scheduler, held) = state.withLock { state in (state.backend?.scheduler, state.hold.paused) }
        return scheduler?.isPaused ?? held
    }

    /// Tells the Dispatcher about a lifecycle or reachability change; it delivers when its
    /// ``BatchDispatchStrategy`` asks for that moment, and waits while the network is unreachable.
    /// Reachability told while the storage is not open applies once it opens.
    public func handle(_ event: LifecycleEvent) {
        let scheduler = state.withLock { state in
            if event == .reachable || event == .unreachable { state.hold.reachable = event == .reachable }
            return state.backend?.scheduler
        }
        scheduler?.request(.lifecycle(event))
    }
}
