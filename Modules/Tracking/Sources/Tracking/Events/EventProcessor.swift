/// The stage before plugins: enriches, rewrites or filters an event.
///
/// Processors run in order; each sees the event as the previous one left it. Global context,
/// consent, redaction, contract validation and duplicate detection are processors.
///
/// A processor implements one method, ``process(_:)``, which changes the event where it lies,
/// so ``EventReporter`` passes each event through every stage without copying it.
///
/// ```swift
/// struct AppVersion: EventProcessor {
///     func process(_ event: inout TrackedEvent) -> Bool {
///         event.userData["appVersion"] = "4.2"
///         return true
///     }
/// }
/// ```
public protocol EventProcessor: Sendable {
    /// Changes `event` where it is; returns `false` to stop it here (no later stage or plugin
    /// sees it).
    func process(_ event: inout TrackedEvent) -> Bool
}

extension EventProcessor {
    /// A processed copy of `event`, or `nil` when ``process(_:)`` stops it.
    public func processed(_ event: TrackedEvent) -> TrackedEvent? {
        var copy = event
        return process(&copy) ? copy : nil
    }
}
