import Foundation
import Testing
import Tracking
import TrackingTestKit
@testable import DataQuality

private enum Cart: EventType {
    enum Name: String, Sendable { case checkout, add }
    enum Action: String, Sendable { case pay, select }
    static let category = "Cart"
}

private let contract = DataContract(categories: [
    "Cart": CategoryContract(
        fields: [
            "quantity": .mandatory(.integer, default: 1),
            "cardType": .optional(.string, allowed: ["Visa", "Mastercard"]),
            "email": .optional(.string, format: .email),
            "coupon": .optional(.string, format: .regex("[A-Z]{3}[0-9]{2}")),
        ],
        events: [EventContract(name: "checkout", action: "pay", fields: ["total": .mandatory(.number)])]
    ),
])

@Suite("Contract validation")
struct ContractValidatorTests {
    private func run(_ userData: UserData, name: Cart.Name = .checkout, action: Cart.Action = .pay) -> (TrackedEvent, ContractValidator) {
        let validator = ContractValidator(contract, mode: .strict)
        let recorder = RecordingPlugin()
        EventReporter<Cart>(plugins: [recorder], processors: [validator]).send(name: name, action: action, userData: userData)
        return (recorder.events[0], validator)
    }

    @Test func aValidEventPassesUnflagged() throws {
        let (event, validator) = run(["quantity": 2, "total": 19.5, "cardType": "Visa", "email": "a@b.co", "coupon": "ABC12"])
        #expect(event.flags.isEmpty)
        try validator.assertNoViolations()
    }

    @Test func eachKindOfViolationIsFlaggedNamingTheField() {
        let (event, validator) = run(["quantity": "two", "total": 3, "cardType": "Amex", "email": "nope", "coupon": "abc", "colour": "red"])
        let codes = Set(event.flags.map(\.code))
        #expect(codes == ["wrong_type", "value_not_allowed", "bad_format", "unknown_field"])
        #expect(event.flags.contains { $0.code == "wrong_type" && $0.detail?.hasPrefix("quantity: expected integer") == true })
        #expect(event.flags.contains { $0.code == "value_not_allowed" && $0.detail?.contains("cardType") == true })
        #expect(event.flags.filter { $0.code == "bad_format" }.compactMap(\.detail).sorted().map { String($0.prefix(6)) } == ["coupon", "email:"])
        #expect(event.flags.contains { $0.code == "unknown_field" && $0.detail?.hasPrefix("colour") == true })
        #expect(validator.violations.count == 5)
    }

    @Test func aMissingMandatoryFieldWithADefaultIsFilledAndFlagged() {
        let (event, _) = run(["total": 1])
        #expect(event.userData["quantity"] == 1)
        #expect(event.flags.map(\.code) == ["defaulted_field"])
    }

    @Test func aMissingMandatoryFieldWithoutDefaultIsFlaggedAndTheEventStillDelivered() {
        let (event, _) = run(["quantity": 1])
        #expect(event.flags == [EventFlag(code: "missing_field", detail: "total: expected number")])
        #expect(event.name == "checkout")
    }

    @Test func eventRulesApplyOnlyToTheirNameAndAction() {
        let (event, _) = run(["quantity": 1], name: .add, action: .select)
        #expect(event.flags.isEmpty)
    }

    @Test func strictModeThrowsAMessageNamingTheEventAndTheField() throws {
        let (event, validator) = run(["quantity": 1, "cardType": "Amex"])
        let error = try #require(throws: ContractViolations.self) { try validator.assertNoViolations() }
        let message = error.description
        #expect(message.contains("Cart/checkout/pay"))
        #expect(message.contains(event.id.uuidString.lowercased()))
        #expect(message.contains("missing_field total"))
        #expect(message.contains("value_not_allowed cardType"))
        validator.reset()
        try validator.assertNoViolations()
    }

    @Test func lenientModeReportsToDiagnosticsButCollectsNothing() {
        let diagnostics = Diagnostics()
        let validator = ContractValidator(contract, diagnostics: diagnostics)
        let event = TrackedEvent(category: "Cart", name: "checkout", action: "pay", userData: ["quantity": 1])
        let result = validator.processed(event)
        #expect(result?.hasFlag("missing_field") == true)
        #expect(validator.violations.isEmpty)
        #expect(diagnostics.snapshot().issues(.validation) == 1)
        #expect(diagnostics.snapshot().recentIssues.first?.eventID == event.id)
    }

    @Test func sensitiveValuesNeverAppearInViolations() {
        let validator = ContractValidator(contract, mode: .strict, redactedFields: ["Email"])
        _ = validator.processed(TrackedEvent(category: "Cart", name: "add", action: "select", userData: ["quantity": 1, "email": "secret"]))
        #expect(validator.violations.map(\.detail) == ["email: expected email, got (redacted)"])
    }

    @Test func unknownCategoriesPassUnlessTheContractFlagsThem() {
        let event = TrackedEvent(category: "Other", name: "x", action: "y", userData: ["a": 1])
        #expect(ContractValidator(contract).processed(event)?.flags.isEmpty == true)
        var flagging = contract
        flagging.flagsUnknownCategories = true
        #expect(ContractValidator(flagging).processed(event)?.flags.map(\.code) == ["unknown_category"])
    }

    @Test func datesAcceptDateValuesAndISOStrings() {
        let rule = FieldType.date
        #expect(rule.accepts(.date(Date())))
        #expect(rule.accepts("2026-11-21T10:00:00.123Z"))
        #expect(rule.accepts("2026-11-21T10:00:00Z"))
        #expect(!rule.accepts("yesterday"))
        #expect(FieldType.number.accepts(3) && !FieldType.integer.accepts(3.5))
    }
}
