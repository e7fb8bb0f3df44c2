import Foundation

extension Dispatcher {
    /// Runs blocking work (a wait for the writer, a store call) on a ``BlockingQueue`` of its
    /// own, outside Swift's cooperative pool. Each call gets its own queue, so a long wait (a
    /// drain) never delays another call (a purge); libdispatch reuses their threads.
    static func offload<Value: Sendable>(_ work: @escaping @Sendable () -> Value) async -> Value {
        await BlockingQueue(label: "Dispatcher.call").run(work)
    }

    func didPersist(_ group: PersistedGroup, _ outcome: InsertOutcome) {
        let now = Date()
        timeline.record(TimelineStep(kind: .persisted, at: now), for: persistedIDs(of: group.ids, duplicates: outcome.duplicates))
        if !outcome.evicted.isEmpty { timeline.record(TimelineStep(kind: .evicted, at: now), for: outcome.evicted) }
        let initialCount = configuration.strategy.contains(.initialEvents) ? configuration.batch.initialEventsCount : 0
        let count = group.ids.count
        let wantsDelivery = lock.withLock {
            state.counters.flagged += group.flagged
            state.pendingSinceRequest += count
            // The first `initialEventsCount` events of a run are delivered at once.
            let initial = state.persistedSoFar < initialCount
            state.persistedSoFar += count
            let full = state.pendingSinceRequest >= configuration.batch.deliverySize
            if full { state.pendingSinceRequest = 0 }
            return full || initial
        }
        if wantsDelivery { backend?.scheduler?.request() }
        if !outcome.evicted.isEmpty { reportEviction(outcome.evicted.count, at: now) }
    }

    /// Eviction is reported at most once a second, with the running total: a store at its
    /// bound evicts on every insert, and a line per insert would flood the log.
    private func reportEviction(_ count: Int, at now: Date) {
        let total: Int? = lock.withLock {
            state.evictedSoFar += count
            guard (state.lastEvictionReport.map { now.timeIntervalSince($0) >= 1 } ?? true) else { return nil }
            state.lastEvictionReport = now
            return state.evictedSoFar
        }
        guard let total else { return }
        let batch = configuration.batch
        diagnose(.storage, "evicted the oldest pending events to respect the queue bounds (maxQueueSize \(batch.maxQueueSize), "
            + "maxQueueBytes \(batch.maxQueueBytes)); \(total) evicted so far")
    }

    /// `ids` except the `duplicates` the store skipped, hashing nothing when there are none (the
    /// usual case).
    private func persistedIDs(of ids: [UUID], duplicates: [UUID]) -> [UUID] {
        guard !duplicates.isEmpty else { return ids }
        let skipped = Set(duplicates)
        return ids.filter { !skipped.contains($0) }
    }

    func didAttempt(_ attempt: DeliveryAttempt) {
        let summary = attempt.decision.summary(statusCode: attempt.statusCode)
        // One timeline entry per attempt number (a batch usually shares one), not per event.
        for (number, ids) in attempt.idsByNumber {
            timeline.record(TimelineStep(kind: .attempt, at: attempt.at, attempt: number, detail: summary), for: ids)
        }
        // Counted here, per settled attempt, so that rounds whose report nobody waits for
        // (a flush that timed out, an automatic round) still count.
        let count = attempt.events.count
        switch attempt.decision {
        case .acknowledge:
            timeline.record(TimelineStep(kind: .delivered, at: attempt.at), for: attempt.ids)
            lock.withLock { state.counters.delivered += count }
        case .reject(let reason):
            timeline.record(TimelineStep(kind: .rejected, at: attempt.at, detail: reason), for: attempt.ids)
            lock.withLock { state.counters.rejected += count }
        case .retry:
            lock.withLock { state.counters.retried += count }
        case .split, .pause:
            break
        }
    }

    func didDeliver(_ report: DeliveryReport) {
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
