import Foundation
import Tracking

/// The tracker's view of itself: counters and recent errors, observable by API and callback.
///
/// Thread-safe. Every stage and the Dispatcher report here; the monitor, a test or a
/// ``DiagnosticEventForwarder`` reads it.
///
/// ```swift
/// let diagnostics = Diagnostics()
/// let token = diagnostics.observe { update in print(update) }
/// diagnostics.increment(.persisted, by: 10)
/// diagnostics.snapshot().count(.persisted)   // 10
/// ```
public final class Diagnostics: Sendable {
    /// What an observer is told.
    public enum Update: Sendable, Equatable {
        /// A counter moved by `amount`.
        case counted(DiagnosticsCounter, amount: Int)
        /// An issue was recorded.
        case issue(DiagnosticIssue)
    }

    /// The counts, the recent issues and the observers.
    private struct State {
        var counters = SlotCounts(DiagnosticsCounter.allCases)
        var issueTotals = SlotCounts(DiagnosticIssue.Kind.allCases)
        var recent: RecentIssues
        var observers = ObserverRegistry<Update>()
    }

    private let state: LockedValue<State>

    /// Creates an empty diagnostics hub.
    /// - Parameter recentLimit: how many of the latest issues ``snapshot()`` keeps (older ones
    ///   are only counted).
    public init(recentLimit: Int = 100) { state = LockedValue(State(recent: RecentIssues(limit: max(1, recentLimit)))) }

    /// Adds `amount` to `counter`.
    public func increment(_ counter: DiagnosticsCounter, by amount: Int = 1) {
        guard amount != 0 else { return }
        let callbacks = state.withLock { state in
            state.counters.add(amount, at: counter.slot)
            return state.observers.all
        }
        for callback in callbacks { callback(.counted(counter, amount: amount)) }
    }

    /// Adds one to `counter`, and one to `also` when given, under one lock.
    func increment(_ counter: DiagnosticsCounter, and also: DiagnosticsCounter?) {
        let callbacks = state.withLock { state in
            state.counters.add(1, at: counter.slot)
            if let also { state.counters.add(1, at: also.slot) }
            return state.observers.all
        }
        for callback in callbacks {
            callback(.counted(counter, amount: 1))
            if let also { callback(.counted(also, amount: 1)) }
        }
    }

    /// Records an issue and tells the observers.
    public func record(_ issue: DiagnosticIssue) {
        let callbacks = state.withLock { state in
            state.issueTotals.add(1, at: issue.kind.slot)
            state.recent.append(issue)
            return state.observers.all
        }
        for callback in callbacks { callback(.issue(issue)) }
    }

    /// Records a batch's issues under one lock, as one entry, then tells the observers about
    /// each (making each issue only then).
    func record(_ batch: any DiagnosticIssueBatch) {
        let callbacks = state.withLock { state in
            state.issueTotals.add(batch.count, at: batch.kind.slot)
            state.recent.append(batch)
            return state.observers.all
        }
        guard !callbacks.isEmpty else { return }
        for index in 0..<batch.count {
            let issue = batch.issue(at: index)
            for callback in callbacks { callback(.issue(issue)) }
        }
    }

    /// Records an issue built from its parts.
    public func record(_ kind: DiagnosticIssue.Kind, code: String, message: String, eventID: UUID? = nil, at date: Date = Date()) {
        record(DiagnosticIssue(kind: kind, code: code, message: message, eventID: eventID, timestamp: date))
    }

    /// Records an issue whose message is written out only when someone reads it.
    func record(_ kind: DiagnosticIssue.Kind, code: String, text: DiagnosticMessage, eventID: UUID?, at date: Date = Date()) {
        record(DiagnosticIssue(kind: kind, code: code, text: text, eventID: eventID, timestamp: date))
    }

    /// The counters and recent issues right now.
    public func snapshot() -> DiagnosticsSnapshot {
        state.withLock { state in
            DiagnosticsSnapshot(counters: state.counters.dictionary, issueTotals: state.issueTotals.dictionary, recentIssues: state.recent.inOrder)
        }
    }

    /// Calls `callback` for every later update, on the thread that caused it, outside the lock.
    /// Keep the token to stop observing.
    @discardableResult
    public func observe(_ callback: @escaping @Sendable (Update) -> Void) -> ObserverToken {
        state.withLock { $0.observers.add(callback) }
    }

    /// Stops calling the observer registered with `token`.
    public func removeObserver(_ token: ObserverToken) {
        state.withLock { $0.observers.remove(token) }
    }

    /// Sets every counter to zero and forgets the issues (observers stay).
    public func reset() {
        state.withLock { state in
            state.counters.removeAll()
            state.issueTotals.removeAll()
            state.recent.removeAll()
        }
    }
}
