import Tracking

/// The library's own events, category `Tracking`: what ``DiagnosticEventForwarder`` sends.
enum TrackingInternal: EventType {
    /// What happened.
    enum Name: String, Sendable, CaseIterable {
        /// One of the library's own errors.
        case error
    }

    /// Where: the ``DiagnosticIssue/Kind``.
    enum Action: String, Sendable, CaseIterable {
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
    static let category = "Tracking"
}
