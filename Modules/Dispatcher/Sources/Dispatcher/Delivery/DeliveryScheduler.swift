import Foundation

/// Decides when a ``DeliveryWorker`` runs: on request, on a timer, when a backoff ends;
/// never while paused, and never two rounds at once.
///
/// A round that ends with ``DeliveryStopReason/endpointRefused`` (401, 403, 404) pauses the
/// scheduler until ``resume()``; meanwhile ``flush(deadline:)`` answers with that stop reason
/// and cause, without a request.
///
/// Requests that arrive while a round runs are coalesced into one more round.
///
/// Waiting costs nothing: the flush interval and retry waits are ``LibraryTimer``s (no thread,
/// no CPU, and no need for a free thread of Swift's cooperative pool); rounds are ordinary
/// tasks whose blocking store calls run on the worker's ``BlockingQueue``.
final class DeliveryScheduler: @unchecked Sendable {
    // Safe: every `var` below is only touched while holding `lock`.
    private let lock = NSLock()
    private let worker: DeliveryWorker
    private let roundBudget: TimeInterval
    private var requested = false
    private var running = false
    private var paused = false
    /// Why rounds are paused when the collector refused the endpoint; nil for a ``pause()``.
    private var refusal: String?
    private var reachable = true
    private var closed = false
    private var retryTimer: LibraryTimer?
    private var intervalTimer: LibraryTimer?
    private let onReport: @Sendable (DeliveryReport) -> Void

    /// Creates a scheduler.
    /// - Parameters:
    ///   - worker: the worker of one destination.
    ///   - flushInterval: seconds between timed rounds; 0 for none.
    ///   - roundBudget: the longest one automatic round may run, in seconds.
    ///   - onReport: called after every round.
    init(worker: DeliveryWorker, flushInterval: TimeInterval, roundBudget: TimeInterval = 60,
         onReport: @escaping @Sendable (DeliveryReport) -> Void) {
        self.worker = worker
        self.roundBudget = roundBudget
        self.onReport = onReport
        if flushInterval > 0 {
            let box = WeakBox<DeliveryScheduler>()
            intervalTimer = LibraryTimer(after: flushInterval, repeating: flushInterval) { box.value?.request() }
            box.value = self
        }
    }

    /// Asks for a round soon; returns at once.
    func request() {
        let start: Bool = lock.withLock {
            requested = true
            guard !running, !paused, reachable, !closed else { return false }
            running = true
            return true
        }
        if start { Task { await self.pump(deadline: nil) } }
    }

    /// Runs a round now (after the current one) and returns its report. Ignores reachability
    /// (an explicit flush tries anyway) but not ``pause()``.
    func flush(deadline: Date) async -> DeliveryReport {
        let pausedReport: DeliveryReport? = lock.withLock {
            guard paused || closed else { return nil }
            var report = DeliveryReport()
            report.stopReason = .stopped
            if let refusal, !closed {
                report.stopReason = .endpointRefused
                report.lastError = refusal
            }
            return report
        }
        if let pausedReport { return pausedReport }
        // An explicit flush does not wait for the retry policy's backoff (the collector's
        // Retry-After still holds).
        let report = await worker.deliverAvailable(deadline: deadline, ignoringBackoff: true)
        pauseIfRefused(report)
        return report
    }

    /// Pauses rounds when the collector refused the endpoint; a round is owed on ``resume()``.
    private func pauseIfRefused(_ report: DeliveryReport) {
        guard report.stopReason == .endpointRefused else { return }
        lock.withLock {
            paused = true
            requested = true
            refusal = report.lastError ?? "the collector refused the endpoint"
        }
    }

    /// Stops automatic rounds until ``resume()``: a running round stops after its current batch.
    func pause() {
        lock.withLock { paused = true }
        let worker = self.worker
        Task { await worker.finishAfterCurrentBatch() }
    }

    /// Allows rounds again (also after a refused endpoint) and runs one if any was asked for
    /// meanwhile.
    func resume() {
        let wanted = lock.withLock {
            paused = false
            refusal = nil
            return requested
        }
        if wanted { request() }
    }

    /// Runs `body` while no delivery round runs (see ``DeliveryWorker/excludingRounds(_:)``).
    func excludingRounds<T: Sendable>(_ body: @escaping @Sendable () async -> T) async -> T {
        await worker.excludingRounds(body)
    }

    /// Whether rounds are paused.
    var isPaused: Bool { lock.withLock { paused } }

    /// Records network reachability; automatic rounds wait while unreachable.
    func setReachable(_ value: Bool) {
        lock.withLock { reachable = value }
    }

    /// Stops the timers and the worker.
    func close() async {
        let timers = lock.withLock {
            closed = true
            return [retryTimer, intervalTimer]
        }
        timers.forEach { $0?.cancel() }
        await worker.stop()
    }

    private func pump(deadline: Date?) async {
        while true {
            let go: Bool = lock.withLock {
                guard requested, !paused, reachable, !closed else {
                    running = false
                    return false
                }
                requested = false
                return true
            }
            guard go else { return }
            let report = await worker.deliverAvailable(deadline: deadline ?? Date().addingTimeInterval(roundBudget))
            pauseIfRefused(report)
            onReport(report)
            if report.stopReason == .backingOff || report.stopReason == .queueError {
                scheduleRetry(at: report.earliestNextAttempt ?? Date().addingTimeInterval(5))
            } else if report.stopReason == .drained, let waiting = report.earliestNextAttempt {
                // Events wait for a retry: wake up when the first is due.
                scheduleRetry(at: waiting)
            }
            // A round cut short (deadline, or stopped by `pause`) is owed a continuation.
            if report.stopReason == .deadline || report.stopReason == .stopped { lock.withLock { requested = true } }
        }
    }

    /// Runs a round at `date`, but never later than the retry policy's longest wait from now.
    private func scheduleRetry(at date: Date) {
        let delay = max(0.05, min(date.timeIntervalSinceNow, worker.configuration.retryPolicy.maxWait))
        let box = WeakBox<DeliveryScheduler>()
        box.value = self
        let timer = LibraryTimer(after: delay) { box.value?.request() }
        let previous = lock.withLock {
            let old = retryTimer
            retryTimer = closed ? nil : timer
            return old
        }
        previous?.cancel()
        if lock.withLock({ closed }) { timer.cancel() }
    }
}
