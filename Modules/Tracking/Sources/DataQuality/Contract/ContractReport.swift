import Foundation
import Tracking

/// One event's contract violations, as found: the ``ContractViolation`` values (and their text)
/// are made only when read, by a diagnostics reader or a strict validator. Each diagnostics issue
/// about the event points into this one report.
final class ContractReport: Sendable {
    private let eventID: UUID
    private let label: EventLabel
    private let findings: ContractFindings
    private let unknownFieldExpectation: String

    /// The report of `findings` (in report order, values already redacted) about `event`.
    init(_ findings: ContractFindings, of event: TrackedEvent, unknownFieldExpectation: String) {
        eventID = event.id
        label = EventLabel(category: event.category, name: event.name, action: event.action)
        self.findings = findings
        self.unknownFieldExpectation = unknownFieldExpectation
    }

    /// How many violations.
    var count: Int { findings.count }

    /// The code of the violation at `index`.
    func code(at index: Int) -> ContractViolation.Code {
        index < findings.unknownKeys.count ? .unknownField : findings.ruleFindings[index - findings.unknownKeys.count].code
    }

    /// The violation at `index`.
    func violation(at index: Int) -> ContractViolation {
        let unknownCount = findings.unknownKeys.count
        if index < unknownCount {
            return ContractViolation(
                code: .unknownField, field: findings.unknownKeys[index], expected: unknownFieldExpectation,
                eventID: eventID, event: label.text)
        }
        let found = findings.ruleFindings[index - unknownCount]
        return ContractViolation(code: found.code, field: found.field, expected: found.expected, actual: found.actual, eventID: eventID, event: label.text)
    }

    /// Every violation, in report order.
    var violations: [ContractViolation] { (0..<count).map(violation(at:)) }
}

/// An event's category, name and action, written `Category/name/action` when read.
private struct EventLabel: Sendable {
    let category: String
    let name: String
    let action: String

    var text: String { "\(category)/\(name)/\(action)" }
}
