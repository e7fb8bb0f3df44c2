import Tracking

/// The text of a ``DiagnosticIssue``, kept as its parts when a stage reports on the hot path
/// and written out only when someone reads it (a snapshot, an observer, the monitor).
enum DiagnosticMessage: Sendable {
    /// Text as given.
    case text(String)
    /// A contract violation: its ``ContractViolation/description``.
    case violation(ContractViolation)
    /// An event repeating an earlier one: `"<event> repeats <detail>"`.
    case repeated(TrackedEvent, detail: String)

    /// The text.
    var rendered: String {
        switch self {
        case .text(let text): text
        case .violation(let violation): violation.description
        case .repeated(let event, let detail): "\(event) repeats \(detail)"
        }
    }
}
