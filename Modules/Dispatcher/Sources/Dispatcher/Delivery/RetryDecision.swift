import Foundation

/// What to do with events after a delivery attempt, as ``RetryPolicy`` decides it.
enum RetryDecision: Sendable, Hashable {
    /// Delivered: remove them.
    case acknowledge
    /// Keep them pending until `at`.
    case retry(at: Date, reason: String)
    /// The batch was too large: split it and deliver the halves.
    case split(reason: String)
    /// Give up: move them to the rejected state with this reason.
    case reject(reason: String)
    /// The endpoint or credentials were refused: return them to pending without counting an
    /// attempt, and stop delivering until resumed.
    case pause(reason: String)
}
