import Tracking

/// The library's own events, category `Tracking`: what ``DiagnosticsReporter`` sends.
public enum TrackingInternal: EventType {
    /// What happened.
    public enum Name: String, Sendable, CaseIterable {
        /// One of the library's own errors.
        case error
    }

    /// Where: the ``DiagnosticIssue/Kind``.
    public enum Action: String, Sendable, CaseIterable {
        /// Storage.
        case storage
        /// Delivery.
        case delivery
        /// Validation.
        case validation
        /// Configuration.
        case configuration
        /// Privacy.
        case privacy
    }

    /// `Tracking`.
    public static let category = "Tracking"
}
