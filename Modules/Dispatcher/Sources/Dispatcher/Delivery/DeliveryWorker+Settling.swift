import Foundation

/// Settling a batch: what each event's answer means for the queue, the report and the observer.
extension DeliveryWorker {
    /// Makes the acknowledgement that waits, if any, now. - Returns: false when the queue failed.
    func acknowledgeNow(_ carry: inout RoundCarry, report: inout DeliveryReport) async -> Bool {
        guard let waiting = carry.acknowledgement else { return true }
        carry.acknowledgement = nil
        let (queue, ids) = (queue, waiting.events.map(\.event.id))
        let result = await storeQueue.run { Result { try queue.acknowledge(ids) } }
        return recordAcknowledgement(waiting, result, report: &report)
    }

    /// Makes the acknowledgement that waits, if any, and claims the next batch due at `due`: in
    /// one store transaction when both are due (when it fails, neither happened).
    /// - Returns: the batch claimed, or nil when the queue failed (recorded in the report, with
    ///   ``DeliveryStopReason/queueError``).
    func acknowledgeNow(_ carry: inout RoundCarry, thenClaimDueAt due: Date, report: inout DeliveryReport) async -> [StoredEvent]? {
        let (queue, limit, maxBytes) = (queue, configuration.deliverySize, destination.maxBatchBytes)
        let waiting = carry.acknowledgement
        carry.acknowledgement = nil
        let ids = waiting?.events.map(\.event.id) ?? []
        let claimed = await storeQueue.run {
            Result {
                ids.isEmpty
                    ? try queue.claimBatch(limit: limit, maxBytes: maxBytes, now: due)
                    : try queue.acknowledge(ids, thenClaim: limit, maxBytes: maxBytes, now: due)
            }
        }
        if let waiting, !recordAcknowledgement(waiting, claimed.map { _ in () }, report: &report) {
            report.stopReason = .queueError
            return nil
        }
        switch claimed {
        case .success(let batch): return batch
        case .failure(let error):
            report.lastError = "claim failed: \(error)"
            report.stopReason = .queueError
            return nil
        }
    }

    /// Counts a deferred acknowledgement made with `result` and tells the observer, then the
    /// progress callback (a batch counts as settled once acknowledged).
    /// - Returns: false when the queue failed (recorded in the report; the events stay in flight,
    ///   where the store's recovery on reopen finds them).
    func recordAcknowledgement(
        _ acknowledgement: DeferredAcknowledgement, _ result: Result<Void, any Error>, report: inout DeliveryReport
    ) -> Bool {
        guard record(acknowledgement.events, .acknowledge, result, statusCode: acknowledgement.statusCode,
                     startedAt: acknowledgement.startedAt, at: acknowledgement.at, report: &report) else { return false }
        progress?(report)
        return true
    }

    /// Delivers one batch (splitting on 413) and settles every event of it.
    func deliver(_ batch: [StoredEvent], deadline: Date, report: inout DeliveryReport) async -> BatchResult {
        let result = await send(batch)
        return await settle(batch, after: result, deadline: deadline, report: &report, mayDefer: false)
    }

    /// Settles every event of `batch` from what its delivery returned, delivering the halves
    /// of a batch too large. With `mayDefer`, a batch delivered whole is left for the caller to
    /// acknowledge (``BatchResult/acknowledgeLater(_:)``).
    func settle(
        _ batch: [StoredEvent], after result: DeliveryResult, deadline: Date, report: inout DeliveryReport, mayDefer: Bool
    ) async -> BatchResult {
        report.requests += 1
        let now = configuration.clock()
        if mayDefer, result.outcome == .delivered, result.rejectedEvents.isEmpty {
            return .acknowledgeLater(DeferredAcknowledgement(events: batch, statusCode: result.statusCode, startedAt: result.requestStartedAt, at: now))
        }
        if case .retry(_, let retryAfter?) = result.outcome {
            await deferDeliveries(until: configuration.retryPolicy.honouring(retryAfter, now: now))
        }
        var sent = batch
        if !result.rejectedEvents.isEmpty {
            let refused = batch.filter { result.rejectedEvents[$0.event.id] != nil }
            sent = batch.filter { result.rejectedEvents[$0.event.id] == nil }
            for (reason, events) in Dictionary(grouping: refused, by: { result.rejectedEvents[$0.event.id] ?? "" }) {
                guard await settle(events, .reject(reason: reason), statusCode: nil, startedAt: result.requestStartedAt, at: now, report: &report) else {
                    await release(batch)
                    return .stop(.queueError)
                }
            }
        }
        guard !sent.isEmpty else { return .completed }

        let random = configuration.random()
        let clockStep = clockWitness.steppedSeconds(at: now)
        var groups: [RetryDecision: [StoredEvent]] = [:]
        for stored in sent {
            let decision = configuration.retryPolicy.decide(
                result.outcome, attempt: stored.attempts + 1, createdAt: stored.createdAt,
                batchCount: sent.count, now: now, random: random, clockStep: clockStep)
            groups[decision, default: []].append(stored)
        }
        var failed = false
        var refused = false
        var splitBatch: [StoredEvent]?
        for (decision, events) in groups {
            switch decision {
            case .split:
                splitBatch = events
                continue
            case .retry:
                failed = true
            case .reject:
                // Given up after retryable failures: the collector is struggling, back off.
                if case .retry = result.outcome { failed = true }
            case .pause:
                refused = true
            case .acknowledge:
                break
            }
            guard await settle(events, decision, statusCode: result.statusCode, startedAt: result.requestStartedAt, at: now, report: &report) else {
                await release(sent)
                return .stop(.queueError)
            }
        }
        if refused { return .stop(.endpointRefused) }
        if failed { return .stop(.backingOff) }
        guard let splitBatch, case .tooLarge(let reason) = result.outcome else { return .completed }

        notify(splitBatch, .split(reason: reason), statusCode: result.statusCode, startedAt: result.requestStartedAt, at: now)
        let middle = splitBatch.count / 2
        let halves = [Array(splitBatch[..<middle]), Array(splitBatch[middle...])]
        for (index, half) in halves.enumerated() {
            if Task.isCancelled || state == .stopped || configuration.clock() >= deadline {
                let rest = halves[index...].flatMap { $0 }
                await release(rest)
                return .stop(Task.isCancelled || state == .stopped ? .stopped : .deadline)
            }
            // A split is not a failed attempt: the halves keep their attempt numbers.
            if case .stop(let reason) = await deliver(half, deadline: deadline, report: &report) {
                if index == 0 { await release(halves[1]) }
                return .stop(reason)
            }
        }
        return .completed
    }

    /// Applies a decision to events in the queue, counts it and tells the observer.
    /// - Returns: false when the queue failed (recorded in the report).
    func settle(
        _ events: [StoredEvent], _ decision: RetryDecision, statusCode: Int?, startedAt: Date? = nil, at now: Date,
        report: inout DeliveryReport
    ) async -> Bool {
        let (queue, ids) = (queue, events.map(\.event.id))
        let result = await storeQueue.run { Result { try Self.apply(decision, to: ids, in: queue) } }
        return record(events, decision, result, statusCode: statusCode, startedAt: startedAt, at: now, report: &report)
    }

    /// Makes the queue call a decision needs.
    private static func apply(_ decision: RetryDecision, to ids: [UUID], in queue: any DeliveryQueue) throws {
        switch decision {
        case .acknowledge: try queue.acknowledge(ids)
        case .retry(let at, let reason): try queue.scheduleRetry(ids, nextAttemptAt: at, error: reason)
        case .reject(let reason): try queue.reject(ids, reason: reason)
        // Not the events' fault: no attempt is counted.
        case .pause: try queue.release(ids)
        case .split: break
        }
    }

    /// Counts a decision applied to `events` with `result` (the queue call's), and tells the
    /// observer. - Returns: false when the queue failed (recorded in the report).
    func record(
        _ events: [StoredEvent], _ decision: RetryDecision, _ result: Result<Void, any Error>, statusCode: Int?,
        startedAt: Date? = nil, at now: Date, report: inout DeliveryReport
    ) -> Bool {
        if case .failure(let error) = result {
            report.lastError = "settling \(events.count) events failed: \(error)"
            return false
        }
        switch decision {
        case .acknowledge:
            report.delivered += events.count
        case .retry(let at, let reason):
            report.retried += events.count
            report.lastError = reason
            report.earliestNextAttempt = min(report.earliestNextAttempt ?? at, at)
        case .reject(let reason):
            report.rejected += events.count
            report.lastError = reason
        case .pause(let reason):
            report.lastError = reason
        case .split:
            break
        }
        notify(events, decision, statusCode: statusCode, startedAt: startedAt, at: now)
        return true
    }

    private func notify(_ events: [StoredEvent], _ decision: RetryDecision, statusCode: Int?, startedAt: Date?, at now: Date) {
        guard let observer else { return }
        observer(DeliveryAttempt(
            destination: destination.name,
            events: events.map { DeliveryAttempt.Entry(id: $0.event.id, number: $0.attempts + 1) },
            decision: decision, statusCode: statusCode, requestStartedAt: startedAt, at: now))
    }

    /// Returns events to pending without counting an attempt; a failure here leaves them in
    /// flight, where the store's recovery on reopen finds them.
    func release(_ events: [StoredEvent]) async {
        guard !events.isEmpty else { return }
        let (queue, ids) = (queue, events.map(\.event.id))
        _ = try? await storeQueue.run { try queue.release(ids) }
    }
}
