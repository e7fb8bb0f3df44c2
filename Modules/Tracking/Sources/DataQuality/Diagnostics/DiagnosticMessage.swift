import Tracking

/// The text of a ``DiagnosticIssue``, kept as its parts when a stage reports on the hot path
/// and written out only when someone reads it (a snapshot, an observer, the monitor).
enum DiagnosticMessage: Sendable {
    /// Text as given.
    case text(String)
    /// The violation at `index` of a report: its ``ContractViolation/description``.
    case violation(ContractReport, index: Int)
    /// An event repeating an earlier one: `"<event> repeats <detail>"`.
    case repeated(RepeatedEvent)

    /// The text.
    var rendered: String {
        switch self {
        case .text(let text): text
        case .violation(let report, let index): report.violation(at: index).description
        case .repeated(let repeated): repeated.message
        }
    }
}
