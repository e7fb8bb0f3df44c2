import Foundation

/// A typed value in an event's ``UserData``: a string, number, boolean, date, list, object or null.
///
/// Literals make it read naturally: `["cardType": "Mastercard", "quantity": 3, "gift": true]`.
///
/// Encoded as plain JSON. A ``date(_:)`` encodes as an ISO-8601 string with milliseconds
/// (`2026-11-21T10:00:00.000Z`), so it decodes back as a ``string(_:)``. Non-finite doubles
/// (NaN, ±infinity) have no JSON form: they encode as the strings `"NaN"`, `"Infinity"` and
/// `"-Infinity"`, and ``TrackedEvent`` flags them with ``EventFlag/nonFiniteNumber``.
/// JSON does not tell `2` from `2.0`, so a whole-valued ``double(_:)`` decodes as an
/// ``int(_:)``; compare numbers with ``doubleValue`` when that matters.
public enum UserDataValue: Sendable, Hashable {
    case string(String)
    case int(Int)
    case double(Double)
    case bool(Bool)
    case date(Date)
    case array([UserDataValue])
    case object([String: UserDataValue])
    case null

    /// The string, if this is a string.
    public var stringValue: String? { if case .string(let value) = self { value } else { nil } }
    /// The integer, if this is an integer.
    public var intValue: Int? { if case .int(let value) = self { value } else { nil } }
    /// The number as a double, if this is an integer or a double.
    public var doubleValue: Double? {
        switch self {
        case .double(let value): value
        case .int(let value): Double(value)
        default: nil
        }
    }
    /// The boolean, if this is a boolean.
    public var boolValue: Bool? { if case .bool(let value) = self { value } else { nil } }

    /// The name of the value's type as used in contracts and messages: `string`, `integer`,
    /// `number`, `boolean`, `date`, `array`, `object` or `null`.
    public var typeName: String {
        switch self {
        case .string: "string"
        case .int: "integer"
        case .double: "number"
        case .bool: "boolean"
        case .date: "date"
        case .array: "array"
        case .object: "object"
        case .null: "null"
        }
    }

    /// Whether this value, or any value nested in it, is a NaN or infinite double. Recurses at
    /// most ``maximumDepth`` levels; deeper values are walked with a stack of their own, so any
    /// depth is safe.
    public var containsNonFiniteNumber: Bool {
        if let answer = containsNonFiniteNumber(levels: Self.maximumDepth) { return answer }
        var pending: [UserDataValue] = [self]
        while let current = pending.popLast() {
            switch current {
            case .double(let value): if !value.isFinite { return true }
            case .array(let values): pending.append(contentsOf: values)
            case .object(let values): pending.append(contentsOf: values.values)
            default: break
            }
        }
        return false
    }

    /// The answer found within `levels` arrays and objects, or nil when the value is deeper and
    /// holds no non-finite number that shallow.
    private func containsNonFiniteNumber(levels: Int) -> Bool? {
        var deeper = false
        switch self {
        case .double(let value):
            return !value.isFinite
        case .array(let values):
            guard levels > 0 else { return nil }
            for value in values {
                switch value.containsNonFiniteNumber(levels: levels - 1) {
                case true?: return true
                case nil: deeper = true
                case false?: break
                }
            }
        case .object(let values):
            guard levels > 0 else { return nil }
            for value in values.values {
                switch value.containsNonFiniteNumber(levels: levels - 1) {
                case true?: return true
                case nil: deeper = true
                case false?: break
                }
            }
        default:
            return false
        }
        return deeper ? nil : false
    }
}

extension UserDataValue: ExpressibleByStringLiteral {
    public init(stringLiteral value: String) { self = .string(value) }
}

extension UserDataValue: ExpressibleByIntegerLiteral {
    public init(integerLiteral value: Int) { self = .int(value) }
}

extension UserDataValue: ExpressibleByFloatLiteral {
    public init(floatLiteral value: Double) { self = .double(value) }
}

extension UserDataValue: ExpressibleByBooleanLiteral {
    public init(booleanLiteral value: Bool) { self = .bool(value) }
}

extension UserDataValue: ExpressibleByArrayLiteral {
    public init(arrayLiteral elements: UserDataValue...) { self = .array(elements) }
}

extension UserDataValue: ExpressibleByDictionaryLiteral {
    public init(dictionaryLiteral elements: (String, UserDataValue)...) {
        self = .object(Dictionary(elements, uniquingKeysWith: { _, last in last }))
    }
}

extension UserDataValue: ExpressibleByNilLiteral {
    public init(nilLiteral: ()) { self = .null }
}

extension UserDataValue: CustomStringConvertible {
    /// The value as compact JSON.
    public var description: String { JSONText.encode(self) }
}

extension UserDataValue: Codable {
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let value = try? container.decode(Bool.self) {
            self = .bool(value)
        } else if let value = try? container.decode(Int.self) {
            self = .int(value)
        } else if let value = try? container.decode(Double.self) {
            self = .double(value)
        } else if let value = try? container.decode(String.self) {
            self = .string(value)
        } else if let value = try? container.decode([UserDataValue].self) {
            self = .array(value)
        } else {
            self = .object(try container.decode([String: UserDataValue].self))
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .string(let value): try container.encode(value)
        case .int(let value): try container.encode(value)
        case .double(let value):
            if value.isFinite { try container.encode(value) } else { try container.encode(JSONText.nonFiniteName(value)) }
        case .bool(let value): try container.encode(value)
        case .date(let value): try container.encode(JSONText.iso8601(value))
        case .array(let value): try container.encode(value)
        case .object(let value): try container.encode(value)
        case .null: try container.encodeNil()
        }
    }
}

extension UserDataValue: ExpressibleByStringInterpolation {}
