import Foundation
import Tracking

/// The fields that apply to one kind of event (a category, or a category's name and action),
/// ready for checking: rules by key, the mandatory keys, and the messages that do not depend on
/// the event written once.
final class CompiledFields: Sendable {
    /// One field's rule with what checking it needs: a reference, so that looking it up copies
    /// nothing but a pointer.
    final class Rule: Sendable {
        /// The contract's rule.
        let rule: FieldRule
        /// ``FieldRule/expectation``.
        let expectation: String
        /// The compiled regular expression, when the format is one.
        let pattern: CompiledPattern?
        /// Whether the field's key is sensitive to the validator's matcher.
        let isSensitive: Bool

        /// Compiles `rule` with its regular expression `pattern`, when it has one.
        init(rule: FieldRule, expectation: String, pattern: CompiledPattern?, isSensitive: Bool) {
            self.rule = rule
            self.expectation = expectation
            self.pattern = pattern
            self.isSensitive = isSensitive
        }
    }

    /// What checking a field needs in the usual case, with no reference to retain: its type,
    /// whether it is mandatory or sensitive, and whether its type is all there is to check.
    struct Summary: Sendable {
        /// The type the value must have.
        let type: FieldType
        /// Whether the field is mandatory.
        let mandatory: Bool
        /// Whether the field's key is sensitive to the validator's matcher.
        let isSensitive: Bool
        /// Whether a value of ``type`` breaks nothing (no allowed values, no format): the
        /// ``Rule`` is then not looked up.
        let typeOnly: Bool
    }

    /// The rules by userData key.
    let rules: StringTable<Rule>
    /// Each rule's ``Summary``, by userData key.
    let summaries: StringTable<Summary>
    /// The mandatory fields' keys and rules, sorted by key.
    let mandatory: [(key: String, rule: Rule)]
    /// Whether a field no rule names passes without a flag.
    let allowsUnknownFields: Bool
    /// What an `unknown_field` violation expects: `no such field (known: a, b)`.
    let unknownFieldExpectation: String
    private let unknownFieldDetails = BoundedTextCache(capacity: 256)

    /// Compiles `fields`, taking compiled patterns from `patterns`; `sensitive` tells the
    /// sensitive keys.
    init(_ fields: [String: FieldRule], allowsUnknownFields: Bool, patterns: [String: CompiledPattern],
         sensitive: SensitiveKeyMatcher) {
        let rules = Dictionary(uniqueKeysWithValues: fields.map { key, rule in
            let pattern: CompiledPattern? = if case .regex(let text)? = rule.format { patterns[text] } else { nil }
            return (key, Rule(rule: rule, expectation: rule.expectation, pattern: pattern, isSensitive: sensitive.matches(key)))
        })
        self.rules = StringTable(rules)
        summaries = StringTable(rules.mapValues {
            Summary(type: $0.rule.type, mandatory: $0.rule.mandatory, isSensitive: $0.isSensitive,
                    typeOnly: $0.rule.allowed == nil && $0.rule.format == nil)
        })
        mandatory = rules.filter(\.value.rule.mandatory).sorted { $0.key < $1.key }.map { (key: $0.key, rule: $0.value) }
        self.allowsUnknownFields = allowsUnknownFields
        unknownFieldExpectation = "no such field (known: \(fields.keys.sorted().joined(separator: ", ")))"
    }

    /// The flag detail of an `unknown_field` violation of `key`, written once per key (up to a
    /// bound, then each time).
    func unknownFieldDetail(_ key: String) -> String {
        unknownFieldDetails.text(for: key) { ContractViolation.detail(field: key, expected: unknownFieldExpectation, actual: nil) }
    }
}
