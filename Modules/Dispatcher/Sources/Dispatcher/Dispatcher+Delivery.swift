import Foundation

extension Dispatcher {
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

    /// Asks for a delivery round soon when events are pending: what the `boot` strategy does once
    /// the store opens. A runtime that must apply saved privacy decisions before anything an earlier
    /// run left is sent leaves `boot` out of the configuration and calls this once they are applied.
    public func requestDelivery() {
        guard let backend, backend.store.counts().pending > 0 else { return }
        backend.scheduler?.request()
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
}
