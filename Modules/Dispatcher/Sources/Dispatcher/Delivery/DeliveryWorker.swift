import Foundation

/// Delivers events from a ``DeliveryQueue`` to one ``Destination``, one request in flight.
///
/// A round claims a batch, delivers it and settles every event it claimed (acknowledged,
/// retried, or rejected; a 413 splits the batch) before it returns. A failed batch ends the round;
/// a refused endpoint (401, 403, 404) ends it with ``DeliveryStopReason/endpointRefused``. Rounds
/// never overlap. A batch delivered whole is acknowledged before the next request goes out, so a
/// kill re-sends at most the batch in flight; after a full batch the next is claimed meanwhile
/// (``OverlappedQueueWork``). Queue calls run on a ``BlockingQueue`` of the worker's own.
///
/// Events wait for their retry time (the retry policy's backoff, or the collector's
/// `Retry-After`). A round started with `ignoringBackoff` (an explicit flush) delivers them at
/// once instead, but still honours the collector's last `Retry-After`, which the worker records
/// in the queue so that a later run honours it too: it sends nothing before it passes.
actor DeliveryWorker {
    /// Where the worker is in its life.
    enum State: Sendable, Equatable {
        /// Waiting for a round.
        case idle
        /// A round is running.
        case delivering
        /// Stopped: rounds return at once.
        case stopped
    }

    /// The current state.
    private(set) var state: State = .idle
    /// The destination delivered to.
    nonisolated let destination: any Destination
    /// The configuration.
    nonisolated let configuration: DeliveryWorkerConfiguration
    let queue: any DeliveryQueue
    let observer: (@Sendable (DeliveryAttempt) -> Void)?
    let progress: (@Sendable (DeliveryReport) -> Void)?
    /// The round in progress.
    var currentRound: Task<DeliveryReport, Never>?
    /// While set, work that excludes rounds runs (``excludingRounds(_:)``): rounds wait for it.
    var barrier: Task<Void, Never>?
    private var finishRequested = false
    /// Before this, the collector asked to be sent nothing (its `Retry-After`).
    private var deferredUntil: Date?
    /// Whether ``deferredUntil`` was read from the queue (once, at the first round).
    private var deferralLoaded = false
    /// Whether the destination's endpoint refused compressed bodies; nil until read from the
    /// queue (``send(_:)``).
    var sendsPlainBodies: Bool?
    /// The wait for ``deferredUntil`` in progress, ended early by ``stop()`` and ``finishAfterCurrentBatch()``.
    var deferralWait: TimedWait?
    /// Where the round's blocking queue calls run.
    let storeQueue: BlockingQueue
    /// Where queue work overlaps a request in flight (``OverlappedQueueWork``).
    private let overlapQueue: BlockingQueue
    /// Steps of the wall clock since the worker started, which do not count towards an event's age.
    let clockWitness: WallClockWitness

    /// Creates a worker.
    /// - Parameters:
    ///   - queue: where events are claimed and settled.
    ///   - destination: where they are delivered.
    ///   - configuration: batch size, retry policy, clock and randomness.
    ///   - observer: called for every settled attempt, with the events and the decision.
    ///   - progress: called after every batch with the round's running report.
    init(
        queue: any DeliveryQueue, destination: any Destination,
        configuration: DeliveryWorkerConfiguration = DeliveryWorkerConfiguration(),
        observer: (@Sendable (DeliveryAttempt) -> Void)? = nil,
        progress: (@Sendable (DeliveryReport) -> Void)? = nil
    ) {
        self.queue = queue
        self.destination = destination
        self.configuration = configuration
        self.observer = observer
        self.progress = progress
        storeQueue = BlockingQueue(label: "Dispatcher.delivery." + destination.name)
        overlapQueue = BlockingQueue(label: "Dispatcher.delivery." + destination.name + ".overlap")
        // Started now, so a clock set afterwards is seen as a step when events are aged.
        clockWitness = WallClockWitness(wall: configuration.clock(), since: configuration.clockBaseline)
    }

    /// Delivers due events until none is left, a batch fails, or `deadline` passes.
    ///
    /// A batch already sent when the deadline passes is still settled. Cancelling the calling
    /// task stops the round after the batch in flight.
    /// - Parameters:
    ///   - deadline: when the round stops starting batches.
    ///   - ignoringBackoff: deliver the pending events whatever their next-attempt time (an
    ///     explicit flush: the retry policy's backoff after a network error or a 5xx does not
    ///     delay it). The collector's `Retry-After` still holds: the round waits for it, costing
    ///     no CPU, when it ends before `deadline`, and otherwise ends at once with
    ///     ``DeliveryStopReason/backingOff`` and ``DeliveryReport/earliestNextAttempt``.
    func deliverAvailable(deadline: Date, ignoringBackoff: Bool = false) async -> DeliveryReport {
        while currentRound != nil || barrier != nil {
            await waitForExclusions()
            if let running = currentRound { _ = await running.value }
        }
        guard state != .stopped else {
            var report = DeliveryReport()
            report.stopReason = .stopped
            return report
        }
        state = .delivering
        finishRequested = false
        let round = LibraryTask.start { await self.runRound(deadline: deadline, ignoringBackoff: ignoringBackoff) }
        currentRound = round
        return await withTaskCancellationHandler {
            await round.value
        } onCancel: {
            round.cancel()
        }
    }

    /// Ends the round in progress after its current batch, without cancelling a request in
    /// flight (what ``DeliveryScheduler`` does on pause); later rounds run as usual.
    func finishAfterCurrentBatch() {
        if state == .delivering {
            finishRequested = true
            deferralWait?.interrupt()
        }
    }

    /// Stops the worker: the round in progress finishes its batch, later rounds return at once.
    func stop() async {
        state = .stopped
        deferralWait?.interrupt()
        if let running = currentRound { _ = await running.value }
    }

    // MARK: - The round

    enum BatchResult {
        case completed
        /// Delivered whole: to be acknowledged in the store beside the next request.
        case acknowledgeLater(DeferredAcknowledgement)
        case stop(DeliveryStopReason)
    }

    /// A batch the collector acknowledged whole, whose store update waits to overlap the next
    /// request (see ``OverlappedQueueWork``).
    struct DeferredAcknowledgement {
        var events: [StoredEvent]
        var statusCode: Int?
        var startedAt: Date?
        var at: Date
    }

    /// What a round carries from one batch to the next: the batch claimed ahead and the
    /// acknowledgement waiting to be made.
    struct RoundCarry {
        var prefetched: [StoredEvent] = []
        var acknowledgement: DeferredAcknowledgement?
    }

    private func runRound(deadline: Date, ignoringBackoff: Bool) async -> DeliveryReport {
        var report = DeliveryReport()
        var carry = RoundCarry()
        await deliverBatches(deadline: deadline, ignoringBackoff: ignoringBackoff, report: &report, carry: &carry)
        // Nothing stays in flight: acknowledge what waits, release what was claimed ahead.
        if await !acknowledgeNow(&carry, report: &report) { report.stopReason = .queueError }
        await release(carry.prefetched)
        currentRound = nil
        if state == .delivering { state = .idle }
        return report
    }

    /// The round's batches, until one of them stops it (``DeliveryReport/stopReason`` set).
    private func deliverBatches(deadline: Date, ignoringBackoff: Bool, report: inout DeliveryReport, carry: inout RoundCarry) async {
        /// The deferral this round already waited for (a test clock may not have moved meanwhile).
        var waitedFor: Date?
        while true {
            if Task.isCancelled || state == .stopped || finishRequested {
                report.stopReason = .stopped
                return
            }
            let now = configuration.clock()
            if now >= deadline {
                report.stopReason = .deadline
                return
            }
            if ignoringBackoff, let deferral = await activeDeferral(now: now), deferral != waitedFor {
                if deferral < deadline {
                    let wait = TimedWait()
                    deferralWait = wait
                    await wait.wait(seconds: deferral.timeIntervalSince(now))
                    deferralWait = nil
                    waitedFor = deferral
                    continue
                }
                report.stopReason = .backingOff
                report.earliestNextAttempt = min(report.earliestNextAttempt ?? deferral, deferral)
                report.lastError = report.lastError ?? "the collector asked (Retry-After) to wait until \(deferral)"
                return
            }
            // An explicit flush claims events whatever their backoff.
            let due = ignoringBackoff ? Date.distantFuture : now
            var batch = carry.prefetched
            carry.prefetched = []
            if batch.isEmpty {
                // The last batch's acknowledgement and this claim, in one transaction when both are due.
                guard let claimed = await acknowledgeNow(&carry, thenClaimDueAt: due, report: &report) else { return }
                batch = claimed
            } else if carry.acknowledgement != nil {
                // A batch delivered whole is acknowledged before the next request goes out, so
                // that a kill re-sends at most the batch in flight.
                guard await acknowledgeNow(&carry, report: &report) else {
                    await release(batch)
                    report.stopReason = .queueError
                    return
                }
            }
            if batch.isEmpty {
                // Nothing due: bring retry times a clock change pushed too far back within the
                // policy's longest wait, and say when the first waiting event is due.
                let latest = now.addingTimeInterval(configuration.retryPolicy.maxWait)
                let queue = queue
                do {
                    if let waiting = try await storeQueue.run({ try queue.capRetryTimes(notAfter: latest, now: now) }) {
                        report.earliestNextAttempt = min(report.earliestNextAttempt ?? waiting, waiting)
                    }
                } catch {
                    // Unknown whether events wait for a retry: a queue error keeps the timers.
                    report.lastError = "reading retry times failed: \(error)"
                    report.stopReason = .queueError
                    return
                }
                report.stopReason = .drained
                return
            }
            // Beside this request, after a full batch: the next batch's claim.
            let claimAhead = batch.count >= configuration.deliverySize
                ? OverlappedQueueWork(queue: queue, limit: configuration.deliverySize, maxBytes: destination.maxBatchBytes,
                                      now: due, on: overlapQueue)
                : nil
            let sent = await send(batch)
            var claimError: (any Error)?
            switch await claimAhead?.claimed() {
            case .success(let next)?: carry.prefetched = next
            case .failure(let error)?: claimError = error
            case nil: break
            }
            let result = await settle(batch, after: sent, deadline: deadline, report: &report, mayDefer: true)
            switch result {
            case .completed: progress?(report)
            case .acknowledgeLater(let acknowledgement): carry.acknowledgement = acknowledgement
            case .stop(let reason):
                progress?(report)
                report.stopReason = reason
                return
            }
            if let claimError {
                report.lastError = "claim failed: \(claimError)"
                report.stopReason = .queueError
                return
            }
        }
    }

    /// The collector's `Retry-After` when it has not passed at `now` (at most the retry policy's
    /// longest wait ahead, whatever the clock did); nil otherwise.
    private func activeDeferral(now: Date) async -> Date? {
        await loadDeferral()
        guard let deferredUntil, deferredUntil > now else { return nil }
        return min(deferredUntil, now.addingTimeInterval(configuration.retryPolicy.maxWait))
    }

    /// Reads the deferral an earlier run recorded in the queue, once.
    private func loadDeferral() async {
        guard !deferralLoaded else { return }
        deferralLoaded = true
        let queue = queue
        if let stored = try? await storeQueue.run({ try queue.deferredUntil() }) { deferredUntil = max(deferredUntil ?? stored, stored) }
    }

    /// Remembers, and records in the queue, that the collector asked to be sent nothing before
    /// `until` (its latest answer replaces an earlier one).
    func deferDeliveries(until: Date) async {
        deferralLoaded = true
        deferredUntil = until
        let queue = queue
        _ = try? await storeQueue.run { try queue.deferDeliveries(until: until) }
    }
}
