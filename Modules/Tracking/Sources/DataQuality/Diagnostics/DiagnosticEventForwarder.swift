import Foundation
import Tracking

/// Turns the library's own errors into events of their own (category `Tracking`, name `error`,
/// action the issue's kind), rate-limited by a token bucket so a failure storm cannot flood
/// the pipeline.
///
/// Issues raised while one of its own events is being sent (for example a validation issue
/// about that very event) are not reported again; they count as suppressed.
///
/// ```swift
/// let forwarder = DiagnosticEventForwarder(plugins: [dispatcher], processors: quality.processors)
/// forwarder.attach(to: diagnostics)
/// ```
public final class DiagnosticEventForwarder: Sendable {
    /// The rate limit, and the counts of suppressed issues and of sends under way.
    private struct State {
        var bucket: TokenBucket
        var suppressed = 0
        var sending = 0
    }

    private let state: LockedValue<State>
    private let reporter: EventReporter<TrackingInternal>
    private let now: @Sendable () -> Date

    /// Creates a forwarder.
    /// - Parameters:
    ///   - plugins: where the events go, for example the Dispatcher.
    ///   - processors: the stages the events pass first, for example a ``DataQualityStack``'s.
    ///   - burst: how many events may be sent at once.
    ///   - perMinute: how many events per minute on average after a burst.
    ///   - now: the clock; injectable for tests.
    public init(
        plugins: [any EventReporterPlugin],
        processors: [any EventProcessor] = [],
        burst: Int = 5,
        perMinute: Double = 6,
        now: @escaping @Sendable () -> Date = { Date() }
    ) {
        self.reporter = EventReporter(plugins: plugins, processors: processors)
        self.state = LockedValue(State(bucket: TokenBucket(capacity: Double(burst), refillPerSecond: perMinute / 60)))
        self.now = now
    }

    /// How many issues were not sent because of the rate limit or re-entry.
    public var suppressedCount: Int { state.withLock { $0.suppressed } }

    /// Sends `issue` as an event if the rate limit allows.
    /// - Returns: whether it was sent.
    @discardableResult
    public func report(_ issue: DiagnosticIssue) -> Bool {
        let date = now()
        let allowed: Bool = state.withLock { state in
            guard state.sending == 0, state.bucket.take(at: date) else {
                state.suppressed += 1
                return false
            }
            state.sending += 1
            return true
        }
        guard allowed else { return false }
        defer { state.withLock { $0.sending -= 1 } }
        var userData: UserData = ["code": .string(issue.code), "message": .string(issue.message)]
        if let eventID = issue.eventID { userData["eventId"] = .string(eventID.uuidString.lowercased()) }
        let action = TrackingInternal.Action(rawValue: issue.kind.rawValue) ?? .storage
        reporter.send(name: .error, action: action, userData: userData)
        return true
    }

    /// Reports every issue `diagnostics` records from now on, for as long as this forwarder is
    /// alive (the observer holds it weakly: keep a reference).
    /// - Returns: the observer token, to stop with ``Diagnostics/removeObserver(_:)``.
    @discardableResult
    public func attach(to diagnostics: Diagnostics) -> ObserverToken {
        diagnostics.observe { [weak self] update in
            if case .issue(let issue) = update { self?.report(issue) }
        }
    }
}
