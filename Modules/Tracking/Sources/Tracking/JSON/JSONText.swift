import Foundation

/// The core's JSON text: `description`, the console, the redactor and the reconciler write
/// with it. A small string builder, not a fast path: the Dispatcher encodes events with a byte
/// writer of its own, and a test holds the two to the same text.
///
/// Objects are written with sorted keys. A value is written at most
/// ``UserDataValue/maximumDepth`` arrays and objects deep; a deeper one is written as
/// ``UserDataValue/truncationPlaceholder``, so the text always parses.
package enum JSONText {
    /// Encodes a value as compact JSON text.
    package static func encode(_ value: UserDataValue) -> String {
        var text = ""
        write(value, openContainers: 0, to: &text)
        return text
    }

    /// The string a non-finite double is written as: `NaN`, `Infinity` or `-Infinity`.
    package static func nonFiniteName(_ value: Double) -> String {
        value.isNaN ? "NaN" : (value > 0 ? "Infinity" : "-Infinity")
    }

    /// Formats a date as ISO-8601 in UTC with milliseconds, `2026-11-21T10:00:00.123Z`, in the
    /// proleptic Gregorian calendar (no formatter, no locale).
    package static func iso8601(_ date: Date) -> String {
        let (days, millisecondOfDay) = floorDivision(milliseconds(date), by: 86_400_000)
        let (year, month, day) = civilDate(daysSince1970: days)
        let yearText = (year < 0 ? "-" : "") + digits(year.magnitude, width: 4)
        let time = [millisecondOfDay / 3_600_000, millisecondOfDay / 60_000 % 60, millisecondOfDay / 1000 % 60]
            .map { digits($0.magnitude, width: 2) }
            .joined(separator: ":")
        return "\(yearText)-\(digits(month.magnitude, width: 2))-\(digits(day.magnitude, width: 2))T\(time)."
            + digits((millisecondOfDay % 1000).magnitude, width: 3) + "Z"
    }

    /// A date in whole milliseconds since 1970, rounded to the nearest.
    package static func milliseconds(_ date: Date) -> Int64 {
        Int64((date.timeIntervalSince1970 * 1000).rounded())
    }

    /// Appends `value`'s text to `text`: loops over one string, no intermediate arrays, so the
    /// first call in a process does not pay for generic `map` and `joined` lookups.
    private static func write(_ value: UserDataValue, openContainers: Int, to text: inout String) {
        switch value {
        case .null: text += "null"
        case .bool(let flag): text += flag ? "true" : "false"
        case .int(let number): text += String(number)
        case .double(let number): text += number.isFinite ? number.description : quoted(nonFiniteName(number))
        case .string(let string): text += quoted(string)
        case .date(let date): text += quoted(iso8601(date))
        case .array(let elements):
            guard openContainers < UserDataValue.maximumDepth else {
                return write(UserDataValue.truncationPlaceholder, openContainers: 0, to: &text)
            }
            text += "["
            for (index, element) in elements.enumerated() {
                if index > 0 { text += "," }
                write(element, openContainers: openContainers + 1, to: &text)
            }
            text += "]"
        case .object(let members):
            guard openContainers < UserDataValue.maximumDepth else {
                return write(UserDataValue.truncationPlaceholder, openContainers: 0, to: &text)
            }
            text += "{"
            for (index, member) in members.sorted(by: { $0.key < $1.key }).enumerated() {
                if index > 0 { text += "," }
                text += quoted(member.key)
                text += ":"
                write(member.value, openContainers: openContainers + 1, to: &text)
            }
            text += "}"
        }
    }

    /// A JSON string literal: quote, backslash and control characters escaped, the rest as is.
    private static func quoted(_ string: String) -> String {
        var result = "\""
        for scalar in string.unicodeScalars {
            switch scalar {
            case "\"": result += "\\\""
            case "\\": result += "\\\\"
            case "\n": result += "\\n"
            case "\r": result += "\\r"
            case "\t": result += "\\t"
            case _ where scalar.value < 0x20: result += "\\u00" + digits(UInt64(scalar.value), width: 2, radix: 16)
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result + "\""
    }

    /// Year, month and day of a day count, through 400-year cycles that start on 1 March.
    private static func civilDate(daysSince1970: Int64) -> (year: Int64, month: Int64, day: Int64) {
        let (cycle, dayOfCycle) = floorDivision(daysSince1970 + 719_468, by: 146_097)
        var rest = dayOfCycle
        var year = cycle * 400
        // Centuries, then four-year spans, then years; the last of each may be a day longer.
        let spans: [(days: Int64, most: Int64, years: Int64)] = [(36_524, 3, 100), (1_461, 24, 4), (365, 3, 1)]
        for span in spans {
            let count = min(rest / span.days, span.most)
            rest -= count * span.days
            year += count * span.years
        }
        let monthStarts: [Int64] = [0, 31, 61, 92, 122, 153, 184, 214, 245, 275, 306, 337]
        let index = monthStarts.lastIndex { $0 <= rest } ?? 0
        let month = Int64(index < 10 ? index + 3 : index - 9)
        return (month <= 2 ? year + 1 : year, month, rest - monthStarts[index] + 1)
    }

    private static func floorDivision(_ value: Int64, by divisor: Int64) -> (quotient: Int64, remainder: Int64) {
        let quotient = value >= 0 ? value / divisor : (value - divisor + 1) / divisor
        return (quotient, value - quotient * divisor)
    }

    private static func digits(_ value: UInt64, width: Int, radix: Int = 10) -> String {
        let text = String(value, radix: radix)
        return String(repeating: "0", count: max(0, width - text.count)) + text
    }
}
