import Tracking

/// The violations one check finds, put in the order a contract reports them: unknown fields
/// by key, then the contract's fields by key (a field's own violations in the order checked).
/// Allocates nothing until the first finding.
struct ContractFindings: Sendable {
    /// A violation of one of the contract's fields, before it becomes a ``ContractViolation``.
    struct Finding: Sendable {
        let code: ContractViolation.Code
        let field: String
        let expected: String
        /// What the event had.
        let actual: String?
    }

    /// The keys no field of the contract names.
    private(set) var unknownKeys: [String] = []
    /// The violations of the contract's fields.
    private(set) var ruleFindings: [Finding] = []

    /// Whether nothing was found.
    var isEmpty: Bool { unknownKeys.isEmpty && ruleFindings.isEmpty }

    /// How many violations were found.
    var count: Int { unknownKeys.count + ruleFindings.count }

    /// Adds a key no field names.
    mutating func addUnknown(_ key: String) { unknownKeys.append(key) }

    /// Adds a violation of one of the contract's fields.
    mutating func add(_ code: ContractViolation.Code, _ field: String, _ expected: String, actual: String? = nil) {
        ruleFindings.append(Finding(code: code, field: field, expected: expected, actual: actual))
    }

    /// These findings with the value of each field in `redacted` (lowercased names) shown as
    /// `(redacted)`.
    func redactingActualValues(of redacted: Set<String>) -> ContractFindings {
        guard !redacted.isEmpty, ruleFindings.contains(where: { $0.actual != nil }) else { return self }
        var result = self
        result.ruleFindings = ruleFindings.map { found in
            guard found.actual != nil, redacted.contains(found.field.lowercased()) else { return found }
            return Finding(code: found.code, field: found.field, expected: found.expected, actual: SensitiveKeyMatcher.maskedText)
        }
        return result
    }

    /// Puts the findings in report order.
    mutating func sort() {
        if unknownKeys.count > 1 { unknownKeys.sort() }
        // Insertion sort by field: stable, so a field's own findings keep their order, and
        // quick for the few findings an event has.
        var index = 1
        while index < ruleFindings.count {
            var position = index
            while position > 0, ruleFindings[position].field < ruleFindings[position - 1].field {
                ruleFindings.swapAt(position, position - 1)
                position -= 1
            }
            index += 1
        }
    }
}
