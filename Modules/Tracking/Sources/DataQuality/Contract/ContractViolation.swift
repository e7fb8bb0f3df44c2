import Foundation
import Tracking

/// One way an event breaks its data contract.
public struct ContractViolation: Sendable, Equatable, CustomStringConvertible {
    /// The kind of violation; its raw value is the flag code the event carries.
    public enum Code: String, Sendable, CaseIterable {
        /// The event carries a field the contract does not name.
        case unknownField = "unknown_field"
        /// A mandatory field is missing and has no default.
        case missingField = "missing_field"
        /// A field has the wrong type.
        case wrongType = "wrong_type"
        /// A field's value is not one of the allowed values.
        case valueNotAllowed = "value_not_allowed"
        /// A string field does not have the required format.
        case badFormat = "bad_format"
        /// A mandatory field was missing and its default was filled in.
        case defaultedField = "defaulted_field"
        /// The contract does not name the event's category (only when it asks for this).
        case unknownCategory = "unknown_category"
    }

    /// What kind of violation.
    public var code: Code
    /// The field concerned (the category for ``Code/unknownCategory``).
    public var field: String
    /// What the contract expected, for example `integer` or `string in ["Visa"]`.
    public var expected: String
    /// What the event had instead, when it had something.
    public var actual: String?
    /// The event's id.
    public var eventID: UUID
    /// The event as `Category/name/action`.
    public var event: String

    /// Creates a violation.
    public init(code: Code, field: String, expected: String, actual: String? = nil, eventID: UUID, event: String) {
        self.code = code
        self.field = field
        self.expected = expected
        self.actual = actual
        self.eventID = eventID
        self.event = event
    }

    /// The flag the event carries: code, and detail `field: expected …, got …`.
    public var flag: EventFlag { EventFlag(code: code.rawValue, detail: detail) }

    /// `quantity: expected integer, got "two"`.
    public var detail: String { Self.detail(field: field, expected: expected, actual: actual) }

    /// The ``detail`` of a violation of `field`.
    static func detail(field: String, expected: String, actual: String?) -> String {
        "\(field): expected \(expected)" + (actual.map { ", got \($0)" } ?? "")
    }

    /// `Cart/checkout/pay (0195…): missing_field quantity: expected integer`.
    public var description: String {
        "\(event) (\(EventID.text(eventID))): \(code.rawValue) \(detail)"
    }
}
