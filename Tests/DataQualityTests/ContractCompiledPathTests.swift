import Foundation
import Testing
import Tracking
@testable import DataQuality

/// The validator as it was before it compiled the contract: the reference its compiled path
/// must agree with, flag for flag and violation for violation.
private func referenceCheck(_ contract: DataContract, _ event: TrackedEvent, redacted: Set<String>) -> (event: TrackedEvent, violations: [ContractViolation]) {
    let label = "\(event.category)/\(event.name)/\(event.action)"
    func violation(_ code: ContractViolation.Code, _ field: String, _ expected: String, _ actual: String? = nil) -> ContractViolation {
        let shown = actual.map { redacted.contains(field.lowercased()) ? "(redacted)" : $0 }
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
        if !rule.isAllowed(value) { violations.append(violation(.valueNotAllowed, key, rule.expectation, value.description)) }
        if let format = rule.format, let text = value.stringValue, !format.matches(text, compiled: nil) {
            violations.append(violation(.badFormat, key, format.name, value.description))
        }
    }
    for found in violations { result.flag(found.flag) }
    return (result, violations)
}

private let contract = DataContract(categories: [
    "Cart": CategoryContract(
        fields: [
            "quantity": .mandatory(.integer, default: 1),
            "cardType": .optional(.string, allowed: ["Visa", "Mastercard"]),
            "email": .optional(.string, format: .email),
            "coupon": .optional(.string, allowed: ["ABC12", "abc"], format: .regex("[A-Z]{3}[0-9]{2}")),
            "when": .optional(.date),
        ],
        events: [
            EventContract(name: "checkout", action: "pay", fields: ["total": .mandatory(.number)]),
            EventContract(name: "checkout", fields: ["quantity": .optional(.integer), "note": .optional(.string)]),
            EventContract(name: "checkout", action: "pay", fields: ["note": .mandatory(.string, allowed: ["gift"])]),
        ]
    ),
    "Open": CategoryContract(fields: ["a": .optional(.boolean)], allowsUnknownFields: true),
], flagsUnknownCategories: true)

private let samples: [UserData] = [
    [:],
    ["quantity": 2, "total": 19.5, "cardType": "Visa", "email": "a@b.co", "coupon": "ABC12", "note": "gift"],
    ["quantity": "two", "total": 3, "cardType": "Amex", "email": "nope", "coupon": "abc", "colour": "red", "Email": "x"],
    ["quantity": .null, "total": .null, "zeta": 1, "alpha": 2, "when": "2026-11-21T10:00:00Z"],
    ["quantity": 2.0, "cardType": 3, "when": "yesterday", "note": "other", "a": "yes"],
    ["coupon": "XYZ99", "password": "secret", "a": true],
]

@Suite("Contract validation: the compiled path flags what the contract always flagged")
struct ContractCompiledPathTests {
    @Test(arguments: [
        ("Cart", "checkout", "pay"), ("Cart", "checkout", "refund"), ("Cart", "add", "pay"), ("Open", "x", "y"),
        ("Nope", "x", "y"), ("$screen", "Home", "view"),
    ])
    func agreesWithTheReference(category: String, name: String, action: String) {
        let validator = ContractValidator(contract, redactedFields: ["email", "coupon"])
        for userData in samples {
            let event = TrackedEvent(category: category, name: name, action: action, userData: userData, flags: [EventFlag(code: "earlier")])
            let expected = referenceCheck(contract, event, redacted: ["email", "coupon"])
            let actual = validator.check(event)
            #expect(actual.event == expected.event, "\(category)/\(name)/\(action) \(userData)")
            #expect(actual.event.flags == expected.event.flags, "\(category)/\(name)/\(action) \(userData)")
            #expect(actual.violations == expected.violations, "\(category)/\(name)/\(action) \(userData)")
        }
    }

    @Test func aValidEventGetsNoFlagAndNoViolation() {
        let validator = ContractValidator(contract)
        let event = TrackedEvent(category: "Cart", name: "checkout", action: "pay", userData: samples[1])
        let result = validator.check(event)
        #expect(result.violations.isEmpty && result.event == event)
    }

    @Test func violationsAreReportedToDiagnosticsWithTheirFullMessage() throws {
        let diagnostics = Diagnostics()
        let validator = ContractValidator(contract, diagnostics: diagnostics, redactedFields: ["email"])
        let event = TrackedEvent(category: "Cart", name: "add", action: "pay", userData: ["colour": "red", "email": "nope", "quantity": 1])
        let checked = try #require(validator.processed(event))
        let issues = diagnostics.snapshot().recentIssues
        let expected = referenceCheck(contract, event, redacted: ["email"]).violations
        #expect(issues.map(\.message) == expected.map(\.description))
        #expect(issues.map(\.code) == ["unknown_field", "bad_format"] && issues.allSatisfy { $0.eventID == event.id && $0.kind == .validation })
        #expect(checked.flags.map(\.code) == ["unknown_field", "bad_format"])
        #expect(!issues.contains { $0.message.contains("nope") })
    }
}
