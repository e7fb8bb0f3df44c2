import Foundation
import Tracking

/// The stage that checks each event against a ``DataContract``.
///
/// Violations are flagged on the event (codes `unknown_field`, `missing_field`, `wrong_type`,
/// `value_not_allowed`, `bad_format`), reported to ``Diagnostics`` as validation issues, and
/// never drop the event. A missing mandatory field with a default is filled in and flagged
/// `defaulted_field`.
///
/// Identify and screen calls (``Tracking/EventKind``, categories `$identify` and `$screen`) are
/// not feature events: they are never flagged `unknown_category`, and their traits or
/// properties are checked only when the contract names `$identify` or `$screen` as a category.
///
/// In tests, use ``Mode/strict``: violations are also collected, and
/// ``assertNoViolations()`` throws a ``ContractViolations`` naming each event and field.
///
/// ```swift
/// let validator = ContractValidator(contract, mode: .strict)
/// let reporter = EventReporter<Cart>(plugins: [recorder], processors: [validator])
/// reporter.send(name: .checkout, action: .pay, userData: ["quantity": 2])
/// try validator.assertNoViolations()
/// ```
public struct ContractValidator: EventProcessor {
    /// How violations are surfaced beyond the flags and diagnostics.
    public enum Mode: Sendable, Equatable {
        /// Flag and report only: the production mode.
        case lenient
        /// Also collect every violation for ``ContractValidator/assertNoViolations()``.
        case strict
    }

    /// The contract events are checked against.
    public let contract: DataContract
    /// The mode.
    public let mode: Mode
    private let diagnostics: Diagnostics?
    private let recorder = ViolationRecorder()
    private let patterns: [String: CompiledPattern]
    private let redactedFields: Set<String>

    /// Creates a validator.
    /// - Parameters:
    ///   - contract: the contract.
    ///   - mode: ``Mode/lenient`` in production, ``Mode/strict`` in tests.
    ///   - diagnostics: where each violation is reported as a validation issue.
    ///   - redactedFields: fields whose values never appear in a violation (sensitive keys,
    ///     any case): messages say `(redacted)` instead.
    public init(_ contract: DataContract, mode: Mode = .lenient, diagnostics: Diagnostics? = nil, redactedFields: some Sequence<String> = [String]()) {
        self.contract = contract
        self.redactedFields = Set(redactedFields.map { $0.lowercased() })
        self.mode = mode
        self.diagnostics = diagnostics
        var patterns: [String: CompiledPattern] = [:]
        for category in contract.categories.values {
            let rules = Array(category.fields.values) + category.events.flatMap { Array($0.fields.values) }
            for rule in rules {
                if case .regex(let pattern)? = rule.format, patterns[pattern] == nil { patterns[pattern] = CompiledPattern(pattern) }
            }
        }
        self.patterns = patterns
    }

    /// Checks, flags and (in strict mode) records; never returns `nil`.
    public func process(_ event: TrackedEvent) -> TrackedEvent? {
        let (checked, violations) = check(event)
        guard !violations.isEmpty else { return checked }
        if let diagnostics {
            for violation in violations {
                diagnostics.record(.validation, code: violation.code.rawValue, message: violation.description, eventID: event.id)
            }
        }
        if mode == .strict { recorder.append(violations) }
        return checked
    }

    /// The event with defaults filled in and flags added, and its violations. Pure: records nothing.
    public func check(_ event: TrackedEvent) -> (event: TrackedEvent, violations: [ContractViolation]) {
        let label = "\(event.category)/\(event.name)/\(event.action)"
        func violation(_ code: ContractViolation.Code, _ field: String, _ expected: String, _ actual: String? = nil) -> ContractViolation {
            let shown = actual.map { redactedFields.contains(field.lowercased()) ? "(redacted)" : $0 }
            return ContractViolation(code: code, field: field, expected: expected, actual: shown, eventID: event.id, event: label)
        }
        guard let category = contract.categories[event.category] else {
            guard contract.flagsUnknownCategories, event.kind == .track else { return (event, []) }
            let found = violation(.unknownCategory, event.category, "one of [" + contract.categories.keys.sorted().joined(separator: ", ") + "]")
            var flagged = event
            flagged.flag(found.flag)
            return (flagged, [found])
        }
        let fields = category.fields(name: event.name, action: event.action)
        var result = event
        var violations: [ContractViolation] = []

        for key in event.userData.keys.sorted() where fields[key] == nil && !category.allowsUnknownFields {
            violations.append(violation(.unknownField, key, "no such field (known: \(fields.keys.sorted().joined(separator: ", ")))"))
        }
        for (key, rule) in fields.sorted(by: { $0.key < $1.key }) {
            guard let value = event.userData[key], value != .null else {
                guard rule.mandatory else { continue }
                if let defaultValue = rule.defaultValue {
                    result.userData[key] = defaultValue
                    violations.append(violation(.defaultedField, key, rule.expectation, "nothing, filled in \(defaultValue)"))
                } else {
                    violations.append(violation(.missingField, key, rule.expectation))
                }
                continue
            }
            guard rule.type.accepts(value) else {
                violations.append(violation(.wrongType, key, rule.type.rawValue, "\(value.typeName) \(value)"))
                continue
            }
            if !rule.isAllowed(value) {
                violations.append(violation(.valueNotAllowed, key, rule.expectation, value.description))
            }
            if let format = rule.format, let text = value.stringValue {
                let compiled: CompiledPattern? = if case .regex(let pattern) = format { patterns[pattern] } else { nil }
                if !format.matches(text, compiled: compiled) {
                    violations.append(violation(.badFormat, key, format.name, value.description))
                }
            }
        }
        for found in violations { result.flag(found.flag) }
        return (result, violations)
    }

    /// The violations collected so far (strict mode only; empty in lenient mode).
    public var violations: [ContractViolation] { recorder.all }

    /// Throws every violation collected so far, naming each event and field.
    /// - Throws: ``ContractViolations`` when there is at least one.
    public func assertNoViolations() throws {
        let all = recorder.all
        if !all.isEmpty { throw ContractViolations(all) }
    }

    /// Forgets the collected violations.
    public func reset() { recorder.reset() }
}
