import Foundation
import Tracking

/// The one place that decides when a ``DeliveryWorker`` runs. The ingest writer (events
/// committed), its timers (flush interval, retry waits), the host (lifecycle and reachability
/// moments) and callers ask through ``request(_:)``; its ``DeliveryDemand`` decides whether the
/// reason calls for a round. Never a round while paused or unreachable, never two at once.
///
/// A round that ends with ``DeliveryStopReason/endpointRefused`` (401, 403, 404) pauses the
/// scheduler until ``resume()``; meanwhile ``deliverNow(deadline:)`` answers with that stop reason
/// and cause, without a request.
///
/// Requests that arrive while a round runs are coalesced into one more round.
///
/// Waiting costs nothing: the flush interval and retry waits are ``LibraryTimer``s (no thread,
/// no CPU, and no need for a free thread of Swift's cooperative pool); rounds are ordinary
/// tasks whose blocking store calls run on the worker's ``BlockingQueue``. The flush-interval
/// timer is armed only while events are pending: by a request that reports some (committed,
/// replayed, opened with a backlog, made deliverable by a caller), and disarmed by a round that
/// drains with none left, none waiting for a retry and none reported since it began.
final class DeliveryScheduler: Sendable {
    private struct State: Sendable {
        var demand: DeliveryDemand
        var requested = false
        var running = false
        var paused = false
        /// Why rounds are paused when the collector refused the endpoint; nil for a ``pause()``.
        var refusal: String?
        var reachable = true
        var closed = false
        var retryTimer: LibraryTimer?
        var intervalTimer: LibraryTimer?
        /// Counts the requests that reported pending events: a round that began before the
        /// last one may not have seen its events, and leaves the interval timer armed.
        var pendingReports = 0
    }

    private let state: LockedValue<State>
    private let worker: DeliveryWorker
    private let roundBudget: TimeInterval
    private let flushInterval: TimeInterval
    private let onReport: @Sendable (DeliveryReport) -> Void

    /// Creates a scheduler.
    /// - Parameters:
    ///   - worker: the worker of one destination.
    ///   - demand: what calls for a round, with what an earlier opening of the storage counted.
    ///   - flushInterval: seconds between timed rounds; 0 for none.
    ///   - roundBudget: the longest one automatic round may run, in seconds.
    ///   - hold: the pause and reachability asked for before this scheduler existed.
    ///   - onReport: called after every round.
    init(worker: DeliveryWorker, demand: DeliveryDemand, flushInterval: TimeInterval, roundBudget: TimeInterval = 60,
         hold: DeliveryHold = DeliveryHold(), onReport: @escaping @Sendable (DeliveryReport) -> Void) {
        self.worker = worker
        self.roundBudget = roundBudget
        self.onReport = onReport
        self.flushInterval = flushInterval.isFinite ? max(0, flushInterval) : 0
        state = LockedValue(State(demand: demand, paused: hold.paused, reachable: hold.reachable))
    }

    /// Takes the pause and reachability the host asked for while this scheduler was being made:
    /// a new pause stops a running round after its current batch; a round owed meanwhile starts
    /// once nothing holds it back. A pause the collector caused (a refused endpoint) stays.
    func adopt(_ hold: DeliveryHold) {
        let (stop, start): (Bool, Bool) = state.withLock {
            let stop = hold.paused && !$0.paused
            $0.paused = hold.paused || $0.refusal != nil
            $0.reachable = hold.reachable
            guard $0.requested, !$0.running, !$0.paused, $0.reachable, !$0.closed else { return (stop, false) }
            $0.running = true
            return (stop, true)
        }
        if stop {
            let worker = self.worker
            LibraryTask.start { await worker.finishAfterCurrentBatch() }
        }
        if start { LibraryTask.start { await self.pump() } }
    }

    /// Asks for a round for `reason`; returns at once. The round starts unless the reason does
    /// not call for one (see ``DeliveryDemand``); while paused or unreachable it is owed, and
    /// runs on ``resume()`` or once reachable.
    /// - Returns: whether `reason` called for a round.
    @discardableResult
    func request(_ reason: DeliveryRequest) -> Bool {
        if reason.reportsPendingEvents { armIntervalTimer() }
        let (wanted, start): (Bool, Bool) = state.withLock {
            if case .lifecycle(let event) = reason, event == .reachable || event == .unreachable {
                $0.reachable = event == .reachable
            }
            guard $0.demand.admits(reason) else { return (false, false) }
            $0.requested = true
            guard !$0.running, !$0.paused, $0.reachable, !$0.closed else { return (true, false) }
            $0.running = true
            return (true, true)
        }
        if start { LibraryTask.start { await self.pump() } }
        return wanted
    }

    /// What calls for a round, with what was counted so far (carried to the next opening).
    var demand: DeliveryDemand { state.withLock { $0.demand } }

    /// Runs a round now (after the current one) and returns its report. Ignores reachability
    /// (an explicit round tries anyway) but not ``pause()``.
    func deliverNow(deadline: Date) async -> DeliveryReport {
        let pausedReport: DeliveryReport? = state.withLock {
            guard $0.paused || $0.closed else { return nil }
            var report = DeliveryReport()
            report.stopReason = .stopped
            if let refusal = $0.refusal, !$0.closed {
                report.stopReason = .endpointRefused
                report.lastError = refusal
            }
            return report
        }
        if let pausedReport { return pausedReport }
        // An explicit round does not wait for the retry policy's backoff (the collector's
        // Retry-After still applies).
        let reported = state.withLock { $0.pendingReports }
        let report = await worker.deliverAvailable(deadline: deadline, ignoringBackoff: true)
        pauseIfRefused(report)
        disarmIntervalTimerIfSettled(report, pendingReportsBefore: reported)
        return report
    }

    /// Pauses rounds when the collector refused the endpoint; a round is owed on ``resume()``.
    private func pauseIfRefused(_ report: DeliveryReport) {
        guard report.stopReason == .endpointRefused else { return }
        state.withLock {
            $0.paused = true
            $0.requested = true
            $0.refusal = report.lastError ?? "the collector refused the endpoint"
        }
    }

    /// Stops automatic rounds until ``resume()``: a running round stops after its current batch.
    func pause() {
        state.withLock { $0.paused = true }
        let worker = self.worker
        LibraryTask.start { await worker.finishAfterCurrentBatch() }
    }

    /// Allows rounds again (also after a refused endpoint) and runs one if any was asked for
    /// meanwhile.
    func resume() {
        let start: Bool = state.withLock {
            $0.paused = false
            $0.refusal = nil
            guard $0.requested, !$0.running, $0.reachable, !$0.closed else { return false }
            $0.running = true
            return true
        }
        if start { LibraryTask.start { await self.pump() } }
    }

    /// Runs `body` while no delivery round runs (see ``DeliveryWorker/excludingRounds(_:)``).
    func excludingRounds<T: Sendable>(_ body: @escaping @Sendable () async -> T) async -> T {
        await worker.excludingRounds(body)
    }

    /// Whether rounds are paused.
    var isPaused: Bool { state.withLock { $0.paused } }

    /// Stops the timers and the worker.
    func close() async {
        cancelTimers()
        await worker.stop()
    }

    /// Stops the timers; no round starts afterwards.
    func cancelTimers() {
        let timers = state.withLock { state in
            state.closed = true
            defer { (state.retryTimer, state.intervalTimer) = (nil, nil) }
            return [state.retryTimer, state.intervalTimer]
        }
        timers.forEach { $0?.cancel() }
    }

    private func pump() async {
        while true {
            let go: Int? = state.withLock {
                guard $0.requested, !$0.paused, $0.reachable, !$0.closed else {
                    $0.running = false
                    return nil
                }
                $0.requested = false
                return $0.pendingReports
            }
            guard let reported = go else { return }
            let report = await worker.deliverAvailable(deadline: Date().addingTimeInterval(roundBudget))
            pauseIfRefused(report)
            disarmIntervalTimerIfSettled(report, pendingReportsBefore: reported)
            onReport(report)
            if report.stopReason == .backingOff || report.stopReason == .queueError {
                scheduleRetry(at: report.earliestNextAttempt ?? Date().addingTimeInterval(5))
            } else if report.stopReason == .drained, let waiting = report.earliestNextAttempt {
                // Events wait for a retry: wake up when the first is due.
                scheduleRetry(at: waiting)
            }
            // A round cut short (deadline, or stopped by `pause`) is owed a continuation.
            if report.stopReason == .deadline || report.stopReason == .stopped { state.withLock { $0.requested = true } }
        }
    }

    /// Whether a round runs or is about to (tests).
    var isRunningRound: Bool { state.withLock { $0.running } }

    /// Whether the flush-interval timer is armed (only while events are pending).
    var isIntervalTimerArmed: Bool { state.withLock { $0.intervalTimer != nil } }

    /// Arms the flush-interval timer unless it is armed, there is none, or this closed; it first
    /// fires a whole interval from now. Counts the report either way.
    private func armIntervalTimer() {
        let arm = state.withLock {
            $0.pendingReports &+= 1
            return flushInterval > 0 && $0.intervalTimer == nil && !$0.closed
        }
        guard arm else { return }
        let box = WeakBox<DeliveryScheduler>()
        box.value = self
        let timer = LibraryTimer(after: flushInterval, repeating: flushInterval) { box.value?.request(.timer) }
        let installed = state.withLock {
            guard $0.intervalTimer == nil, !$0.closed else { return false }
            $0.intervalTimer = timer
            return true
        }
        if !installed { timer.cancel() }
    }

    /// Disarms the flush-interval timer after a round that left nothing for it: it drained, no
    /// event waits for a retry, and no request reported pending events since the round began.
    private func disarmIntervalTimerIfSettled(_ report: DeliveryReport, pendingReportsBefore: Int) {
        guard report.stopReason == .drained, report.earliestNextAttempt == nil else { return }
        let timer: LibraryTimer? = state.withLock { state in
            guard state.pendingReports == pendingReportsBefore else { return nil }
            defer { state.intervalTimer = nil }
            return state.intervalTimer
        }
        timer?.cancel()
    }

    /// Runs a round at `date`, but never later than the retry policy's longest wait from now.
    private func scheduleRetry(at date: Date) {
        let delay = max(0.05, min(date.timeIntervalSinceNow, worker.configuration.retryPolicy.maxWait))
        let box = WeakBox<DeliveryScheduler>()
        box.value = self
        let timer = LibraryTimer(after: delay) { box.value?.request(.timer) }
        let (previous, closed) = state.withLock {
            let old = $0.retryTimer
            $0.retryTimer = $0.closed ? nil : timer
            return (old, $0.closed)
        }
        previous?.cancel()
        if closed { timer.cancel() }
    }
}
