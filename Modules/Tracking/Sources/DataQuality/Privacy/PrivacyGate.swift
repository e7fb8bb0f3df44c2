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

    /// Drops, marks or passes the event.
    public func process(_ event: TrackedEvent) -> TrackedEvent? {
        if controls.isOptedOut {
            diagnostics?.increment(.dropped)
            return nil
        }
        switch controls.consent(for: event.category) {
        case .notRequired, .granted:
            return event
        case .denied:
            diagnostics?.increment(.dropped)
            return nil
        case .pending:
            var held = event
            held.flag(.awaitingConsent(category: event.category))
            held.eventContext[ContextKey.awaitingConsent] = .string(event.category)
            return held
        }
    }
}
