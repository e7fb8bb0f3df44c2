import Tracking

/// The stage that enforces opt-out and consent. Place it first, so nothing else sees an event
/// that must not exist.
///
/// - Opted out: returns `nil` (the event is neither stored nor sent) and counts it `dropped`.
/// - Category needs consent, not yet known: passes the event on with the flag
///   ``Tracking/EventFlag/awaitingConsent(category:)`` and the context key
///   ``Tracking/ContextKey/awaitingConsent``; the Dispatcher holds such events in its store until
///   consent is granted (deliver) or denied (delete).
/// - Consent denied: returns `nil` and counts it `dropped`.
struct PrivacyGate: EventProcessor {
    private let controls: PrivacyControls
    private let diagnostics: Diagnostics?

    /// Creates a gate reading `controls`.
    /// - Parameter diagnostics: where dropped events are counted.
    public init(_ controls: PrivacyControls, diagnostics: Diagnostics? = nil) {
        self.controls = controls
        self.diagnostics = diagnostics
    }

    /// Drops (returns `false`), marks or passes the event.
    public func process(_ event: inout TrackedEvent) -> Bool {
        let (optedOut, consent) = controls.admission(for: event.category)
        if optedOut {
            diagnostics?.increment(.dropped)
            return false
        }
        switch consent {
        case .notRequired, .granted:
            return true
        case .denied:
            diagnostics?.increment(.dropped)
            return false
        case .pending:
            event.flag(.awaitingConsent(category: event.category))
            event.eventContext[ContextKey.awaitingConsent] = .string(event.category)
            return true
        }
    }
}
