import Foundation
import Tracking

extension Dispatcher {
    /// Runs blocking work (a wait for the writer, a store call) on a ``BlockingQueue`` of its
    /// own, outside Swift's cooperative pool. Each call gets its own queue, so a long wait (a
    /// drain) never delays another call (a purge); libdispatch reuses their threads.
    static func offload<Value: Sendable>(_ work: @escaping @Sendable () -> Value) async -> Value {
        await BlockingQueue(label: "Dispatcher.call").run(work)
    }

    func didAttempt(_ attempt: DeliveryAttempt) {
        var summary = attempt.decision.summary(statusCode: attempt.statusCode)
        if let started = attempt.requestStartedAt {
            // Once per event, at its first request: a retry is an attempt, not a new batch.
            let count = attempt.events.count
            let first = attempt.events.filter { $0.number == 1 }.map(\.id)
            if !first.isEmpty {
                timeline.record(TimelineStep(kind: .batched, at: started,
                                             detail: "\(count) event\(count == 1 ? "" : "s") in one request to \(attempt.destination)"),
                                for: first)
            }
            summary += " after \(max(0, Int((attempt.at.timeIntervalSince(started) * 1_000).rounded()))) ms"
        }
        // One timeline entry per attempt number (a batch usually shares one), not per event.
        for (number, ids) in attempt.idsByNumber {
            timeline.record(TimelineStep(kind: .attempt, at: attempt.at, attempt: number, detail: summary), for: ids)
        }
        // Counted here, per settled attempt, so that rounds whose report nobody waits for
        // (a drain that timed out, an automatic round) still count.
        let count = attempt.events.count
        switch attempt.decision {
        case .acknowledge:
            timeline.record(TimelineStep(kind: .delivered, at: attempt.at), for: attempt.ids)
            state.withLock { state in state.counters.delivered += count }
        case .reject(let reason):
            timeline.record(TimelineStep(kind: .rejected, at: attempt.at, detail: reason), for: attempt.ids)
            state.withLock { state in state.counters.rejected += count }
        case .retry:
            state.withLock { state in state.counters.retried += count }
        case .split, .pause:
            break
        }
    }

    func didDeliver(_ report: DeliveryReport) {
        // Once, for the round whose request was refused (not for drains answered while paused).
        if report.stopReason == .endpointRefused {
            if report.requests > 0 {
                diagnose(.delivery, (report.lastError ?? "the collector refused the endpoint") + "; delivery paused until resume()")
            }
        } else if let error = report.lastError, report.retried + report.rejected > 0 || report.stopReason == .queueError {
            diagnose(.delivery, error)
        }
    }
}
