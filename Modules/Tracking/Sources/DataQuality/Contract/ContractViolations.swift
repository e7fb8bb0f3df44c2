/// The violations a strict ``ContractValidator`` collected: thrown by
/// ``ContractValidator/assertNoViolations()`` so a test fails naming each event and field.
public struct ContractViolations: Error, Sendable, Equatable, CustomStringConvertible {
    /// Every violation, in the order the events were sent.
    public var violations: [ContractViolation]

    /// Creates the error.
    public init(_ violations: [ContractViolation]) { self.violations = violations }

    /// One line per violation under a count.
    public var description: String {
        "\(violations.count) data contract violation\(violations.count == 1 ? "" : "s"):\n"
            + violations.map { "  " + $0.description }.joined(separator: "\n")
    }
}
