import Foundation

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
public final class Diagnostics: @unchecked Sendable {
    /// What an observer is told.
    public enum Update: Sendable, Equatable {
        /// A counter moved by `amount`.
        case counted(DiagnosticsCounter, amount: Int)
        /// An issue was recorded.
        case issue(DiagnosticIssue)
    }

    // Safe: every mutable property below is only touched while holding `lock`.
    private let lock = NSLock()
    private var counters: [DiagnosticsCounter: Int] = [:]
    private var issueTotals: [DiagnosticIssue.Kind: Int] = [:]
    private var recent: [DiagnosticIssue] = []
    private var observers = ObserverRegistry<Update>()
    private let recentLimit: Int

    /// Creates an empty diagnostics hub.
    /// - Parameter recentLimit: how many of the latest issues ``snapshot()`` keeps (older ones
    ///   are only counted).
    public init(recentLimit: Int = 100) { self.recentLimit = max(1, recentLimit) }

    /// Adds `amount` to `counter`.
    public func increment(_ counter: DiagnosticsCounter, by amount: Int = 1) {
        guard amount != 0 else { return }
        let callbacks = lock.withLock {
            counters[counter, default: 0] += amount
            return observers.all
        }
        callbacks.forEach { $0(.counted(counter, amount: amount)) }
    }

    /// Records an issue and tells the observers.
    public func record(_ issue: DiagnosticIssue) {
        let callbacks = lock.withLock {
            issueTotals[issue.kind, default: 0] += 1
            recent.append(issue)
            if recent.count > recentLimit { recent.removeFirst(recent.count - recentLimit) }
            return observers.all
        }
        callbacks.forEach { $0(.issue(issue)) }
    }

    /// Records an issue built from its parts.
    public func record(_ kind: DiagnosticIssue.Kind, code: String, message: String, eventID: UUID? = nil, at date: Date = Date()) {
        record(DiagnosticIssue(kind: kind, code: code, message: message, eventID: eventID, timestamp: date))
    }

    /// The counters and recent issues right now.
    public func snapshot() -> DiagnosticsSnapshot {
        lock.withLock { DiagnosticsSnapshot(counters: counters, issueTotals: issueTotals, recentIssues: recent) }
    }

    /// Calls `callback` for every later update, on the thread that caused it, outside the lock.
    /// Keep the token to stop observing.
    @discardableResult
    public func observe(_ callback: @escaping @Sendable (Update) -> Void) -> ObserverToken {
        lock.withLock { observers.add(callback) }
    }

    /// Stops calling the observer registered with `token`.
    public func removeObserver(_ token: ObserverToken) {
        lock.withLock { observers.remove(token) }
    }

    /// Sets every counter to zero and forgets the issues (observers stay).
    public func reset() {
        lock.withLock {
            counters.removeAll()
            issueTotals.removeAll()
            recent.removeAll()
        }
    }
}
