import Tracking

/// The violations one check finds, in the order found, sorted at the end into the order a
/// contract reports them: unknown fields by key, then the contract's fields by key (a field's
/// own violations in the order checked). Allocates nothing until the first finding.
struct ContractFindings {
    /// One finding, before it becomes a ``ContractViolation``.
    struct Finding {
        let code: ContractViolation.Code
        let field: String
        let expected: String
        /// What the event had, not yet redacted.
        let actual: String?
        /// The flag detail, when already written.
        let detail: String?
        /// Where it was found, to keep a field's own findings in order.
        let sequence: Int
    }

    private var found: [Finding] = []

    /// Whether nothing was found.
    var isEmpty: Bool { found.isEmpty }

    /// Adds a finding.
    mutating func add(_ code: ContractViolation.Code, _ field: String, _ expected: String, actual: String? = nil, detail: String? = nil) {
        found.append(Finding(code: code, field: field, expected: expected, actual: actual, detail: detail, sequence: found.count))
    }

    /// The findings in report order.
    var sorted: [Finding] {
        found.count < 2 ? found : found.sorted { left, right in
            let leftUnknown = left.code == .unknownField, rightUnknown = right.code == .unknownField
            if leftUnknown != rightUnknown { return leftUnknown }
            if left.field != right.field { return left.field < right.field }
            return left.sequence < right.sequence
        }
    }
}
