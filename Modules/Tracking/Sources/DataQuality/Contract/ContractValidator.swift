import Foundation
import Tracking

/// The stage that checks each event against a ``DataContract``.
///
/// Violations are flagged on the event (codes `unknown_field`, `missing_field`, `wrong_type`,
/// `value_not_allowed`, `bad_format`), reported to ``Diagnostics`` as validation issues, and
/// never drop the event. A missing mandatory field with a default is filled in and flagged
/// `defaulted_field`.
///
/// Identify and screen calls (`EventKind`, categories `$identify` and `$screen`) are
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
    private let compiled: CompiledContract
    /// The sensitive keys: their values never appear in a violation, at any depth.
    private let redactedFields: SensitiveKeyMatcher

    /// Creates a validator.
    /// - Parameters:
    ///   - contract: the contract.
    ///   - mode: ``Mode/lenient`` in production, ``Mode/strict`` in tests.
    ///   - diagnostics: where each violation is reported as a validation issue.
    ///   - redactedFields: keys whose values never appear in a violation (sensitive keys,
    ///     any case), at any depth: a field's own value, and the value of such a key inside an
    ///     object or array that is described, show as `(redacted)`.
    public init(_ contract: DataContract, mode: Mode = .lenient, diagnostics: Diagnostics? = nil, redactedFields: some Sequence<String> = [String]()) {
        self.init(contract, mode: mode, diagnostics: diagnostics, matcher: SensitiveKeyMatcher(redactedFields))
    }

    /// Creates a validator whose sensitive keys are `matcher`'s: a `Redactor` sharing it relies
    /// on the screen this validator's walk leaves on each event (``Tracking/UserDataDigest``).
    init(_ contract: DataContract, mode: Mode, diagnostics: Diagnostics?, matcher: SensitiveKeyMatcher) {
        self.contract = contract
        redactedFields = matcher
        self.mode = mode
        self.diagnostics = diagnostics
        compiled = CompiledContract(contract, sensitive: matcher)
    }

    /// Fills in defaults, flags the event's violations, reports them and (in strict mode)
    /// records them; never stops the event.
    public func process(_ event: inout TrackedEvent) -> Bool {
        guard let report = checkInPlace(&event) else { return true }
        diagnostics?.record(report)
        if mode == .strict { recorder.append(report.violations) }
        return true
    }

    /// The event with defaults filled in and flags added, and its violations. Pure: records nothing.
    public func check(_ event: TrackedEvent) -> (event: TrackedEvent, violations: [ContractViolation]) {
        var result = event
        let report = checkInPlace(&result)
        return (result, report?.violations ?? [])
    }

    /// Fills in defaults and adds flags to `event`, and returns the report of its violations
    /// (unknown fields by key, then the contract's fields by key), or `nil` when it breaks
    /// nothing. Builds no text and no array for an event that breaks nothing.
    ///
    /// The one walk of the userData also leaves its digest on the event (see
    /// ``Tracking/UserDataDigest``): each member's content hash, whose key lane finds the
    /// member's rule and whose sums the duplicate detector's fingerprint takes, and whether
    /// anything in it is for the redactor.
    private func checkInPlace(_ event: inout TrackedEvent) -> ContractReport? {
        var findings = ContractFindings()
        guard let category = compiled.categories[event.category] else {
            guard contract.flagsUnknownCategories, event.kind == .track else { return nil }
            findings.add(.unknownCategory, event.category, compiled.unknownCategoryExpectation)
            return report(findings, on: &event, fields: nil)
        }
        let fields = category.fields(name: event.name, action: event.action)
        var mandatoryPresent = 0
        var sums: (low: UInt64, high: UInt64) = (0, 0)
        var screened = true
        for (key, value) in event.userData {
            var member = ContentHash.member(key: key)
            let keyHash = member.lanes.low
            let found = fields.summaries[key, hash: keyHash]
            member.combine(value: value)
            let lanes = member.lanes
            sums.low &+= lanes.low
            sums.high &+= lanes.high
            if screened, value.isContainer || (found?.isSensitive ?? redactedFields.matches(key)) { screened = false }
            guard let summary = found else {
                if !fields.allowsUnknownFields { findings.addUnknown(key) }
                continue
            }
            if case .null = value { continue }
            if summary.mandatory { mandatoryPresent += 1 }
            // The usual field: its type is all there is to check, and the value has it.
            if summary.typeOnly, summary.type.accepts(value) { continue }
            if let rule = fields.rules[key, hash: keyHash] { check(value, of: key, against: rule, into: &findings) }
        }
        // Set before any default is filled in, which changes the userData and so drops it.
        event.userDataDigest = UserDataDigest(memberSums: sums, screenedBy: screened && !redactedFields.keys.isEmpty ? redactedFields.id : 0)
        if mandatoryPresent < fields.mandatory.count {
            for (key, rule) in fields.mandatory {
                if let value = event.userData[key], value != .null { continue }
                if let defaultValue = rule.rule.defaultValue {
                    event.userData[key] = defaultValue
                    findings.add(.defaultedField, key, rule.expectation, actual: "nothing, filled in \(defaultValue)")
                } else {
                    findings.add(.missingField, key, rule.expectation)
                }
            }
        }
        guard !findings.isEmpty else { return nil }
        findings.sort()
        return report(findings, on: &event, fields: fields)
    }

    /// Flags `event` with each of `findings` (sorted, not yet redacted) and returns their
    /// report. `fields` are the fields checked (`nil` for an unknown category, which has no
    /// unknown fields).
    private func report(_ findings: ContractFindings, on event: inout TrackedEvent, fields: CompiledFields?) -> ContractReport {
        let shown = findings.redactingActualValues(of: redactedFields.keys)
        // Room for these flags and one more: a later stage's (a duplicate) then needs no copy.
        event.flags.reserveCapacity(event.flags.count + shown.count + 1)
        if let fields {
            for key in shown.unknownKeys {
                event.flag(EventFlag(code: ContractViolation.Code.unknownField.rawValue, detail: fields.unknownFieldDetail(key)))
            }
        }
        for found in shown.ruleFindings {
            event.flag(EventFlag(code: found.code.rawValue, detail: ContractViolation.detail(field: found.field, expected: found.expected, actual: found.actual)))
        }
        return ContractReport(shown, of: event, unknownFieldExpectation: fields?.unknownFieldExpectation ?? "")
    }

    /// Adds the violations of one present, non-null value.
    private func check(_ value: UserDataValue, of key: String, against compiledRule: CompiledFields.Rule, into findings: inout ContractFindings) {
        // Read through the shared rule, not a copy of it (which would retain each of its parts).
        guard compiledRule.rule.type.accepts(value) else {
            findings.add(.wrongType, key, compiledRule.rule.type.rawValue, actual: "\(value.typeName) \(redactedFields.masking(value))")
            return
        }
        if compiledRule.rule.allowed != nil, !compiledRule.rule.isAllowed(value) {
            findings.add(.valueNotAllowed, key, compiledRule.expectation, actual: redactedFields.masking(value).description)
        }
        if let format = compiledRule.rule.format, let text = value.stringValue,
           !format.matches(text, compiled: compiledRule.pattern) {
            findings.add(.badFormat, key, format.name, actual: value.description)
        }
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
