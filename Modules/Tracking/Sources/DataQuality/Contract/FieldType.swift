import Foundation
import Tracking

/// The type a contract requires of a userData field.
public enum FieldType: String, Sendable, Codable, CaseIterable, Hashable {
    /// Text.
    case string
    /// A whole number.
    case integer
    /// Any number (an integer is accepted too).
    case number
    /// `true` or `false`.
    case boolean
    /// A date: a `UserDataValue.date(_:)`, or an ISO-8601 string (how dates come back from JSON).
    case date
    /// A list.
    case array
    /// A nested object.
    case object

    /// Whether `value` is of this type.
    public func accepts(_ value: UserDataValue) -> Bool {
        switch (self, value) {
        case (.string, .string), (.integer, .int), (.number, .int), (.number, .double), (.boolean, .bool),
             (.date, .date), (.array, .array), (.object, .object):
            return true
        case (.date, .string(let text)):
            return FieldFormat.parseISO8601(text) != nil
        default:
            return false
        }
    }
}
