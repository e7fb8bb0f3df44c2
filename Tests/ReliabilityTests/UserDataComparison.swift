import TestSupport
@testable import Tracking

/// Compares data that went through JSON with the data that was sent.
///
/// JSON has no dates, no non-finite numbers and no `2.0` distinct from `2`: dates travel as
/// ISO-8601 strings, NaN and infinities as the strings `"NaN"`, `"Infinity"`, `"-Infinity"`,
/// and numbers are equal when their values are.
enum UserDataComparison {
    /// The value as it must come back from JSON.
    static func jsonForm(_ value: UserDataValue) -> UserDataValue {
        switch value {
        case .double(let number) where !number.isFinite: .string(JSONText.nonFiniteName(number))
        case .date(let date): .string(JSONText.iso8601(date))
        case .array(let values): .array(values.map(jsonForm))
        case .object(let values): .object(values.mapValues(jsonForm))
        default: value
        }
    }

    /// The userData as the library must deliver it: every array or object deeper than
    /// ``DeepValue/limit`` (the userData object being level 1) replaced by the placeholder.
    static func cutToLimit(_ userData: UserData) -> UserData {
        userData.mapValues { cut($0, level: 2) }
    }

    private static func cut(_ value: UserDataValue, level: Int) -> UserDataValue {
        switch value {
        case .array where level > DeepValue.limit, .object where level > DeepValue.limit: .string(DeepValue.placeholder)
        case .array(let values): .array(values.map { cut($0, level: level + 1) })
        case .object(let values): .object(values.mapValues { cut($0, level: level + 1) })
        default: value
        }
    }

    /// Whether `received` is what `sent` must become after a JSON round trip.
    static func matches(sent: UserDataValue, received: UserDataValue) -> Bool {
        equivalent(jsonForm(sent), received)
    }

    /// Whether two JSON-form values are equal, numbers compared by value.
    static func equivalent(_ left: UserDataValue, _ right: UserDataValue) -> Bool {
        switch (left, right) {
        case (.int(let a), .int(let b)): return a == b
        case (.int, .double), (.double, .int), (.double, .double):
            return left.doubleValue == right.doubleValue
        case (.array(let a), .array(let b)):
            return a.count == b.count && zip(a, b).allSatisfy { equivalent($0, $1) }
        case (.object(let a), .object(let b)):
            return a.count == b.count && a.allSatisfy { key, value in b[key].map { equivalent(value, $0) } ?? false }
        default:
            return left == right
        }
    }

    /// The first difference between two JSON-form values, as a path, for failure messages.
    static func firstDifference(_ left: UserDataValue, _ right: UserDataValue, path: String = "$") -> String? {
        switch (left, right) {
        case (.array(let a), .array(let b)):
            guard a.count == b.count else { return "\(path): \(a.count) vs \(b.count) elements" }
            for (index, pair) in zip(a, b).enumerated() {
                if let difference = firstDifference(pair.0, pair.1, path: "\(path)[\(index)]") { return difference }
            }
            return nil
        case (.object(let a), .object(let b)):
            for (key, value) in a {
                guard let other = b[key] else { return "\(path): key \(key.debugDescription.prefix(80)) missing" }
                if let difference = firstDifference(value, other, path: "\(path).\(key.debugDescription.prefix(40))") { return difference }
            }
            return a.count == b.count ? nil : "\(path): \(a.count) vs \(b.count) keys"
        default:
            return equivalent(left, right) ? nil : "\(path): sent \(String(describing: left).prefix(80)), got \(String(describing: right).prefix(80))"
        }
    }
}
