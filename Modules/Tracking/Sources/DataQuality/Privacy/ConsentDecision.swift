/// What is known about consent for an event category.
public enum ConsentDecision: String, Sendable, Codable, Hashable, CaseIterable {
    /// The category does not need consent.
    case notRequired = "not_required"
    /// Consent is needed and not yet given or refused: events wait.
    case pending
    /// Consent was given: events are delivered.
    case granted
    /// Consent was refused: events are dropped (and held ones deleted).
    case denied
}
