import Foundation
import Tracking

/// A fast, allocation-light JSON writer that appends UTF-8 bytes to a buffer.
///
/// Used on hot paths (persisting an event, encoding a batch) where `JSONEncoder` is too slow.
/// Keys are written in the order given; ``UserData`` objects are written with sorted keys, so
/// the same data always produces the same bytes.
///
/// A value is written at most ``UserDataValue/maximumDepth`` arrays and objects deep (the
/// outermost one given to ``value(_:)`` or ``object(_:sortedKeys:)`` counting as level 1): a
/// deeper one is written as ``UserDataValue/truncationPlaceholder`` and ``truncated`` is set.
/// So the output always parses, and the writer never recurses deeper than that.
///
/// The core writes the same text with a simpler, slower encoder for its own output
/// (`description`, the console); a test in `DispatcherTests` holds the two to the same text.
struct JSONWriter: Sendable {
    /// The bytes written so far.
    private(set) var bytes: [UInt8]
    /// Whether something nested deeper than ``UserDataValue/maximumDepth`` was written as the
    /// placeholder.
    private(set) var truncated = false
    /// The arrays and objects of a value being written that are open.
    private var nesting = 0

    /// Creates a writer.
    /// - Parameter capacity: bytes to reserve up front.
    init(capacity: Int = 256) {
        bytes = []
        bytes.reserveCapacity(capacity)
    }

    /// The bytes written so far, as a string.
    var string: String { String(decoding: bytes, as: UTF8.self) }

    /// Appends raw, already-valid JSON bytes.
    mutating func raw(_ text: StaticString) {
        text.withUTF8Buffer { bytes.append(contentsOf: $0) }
    }

    /// Appends raw, already-valid JSON bytes.
    mutating func raw(bytes other: some Collection<UInt8>) { bytes.append(contentsOf: other) }

    /// Appends a JSON string literal, escaped.
    mutating func string(_ value: String) {
        bytes.append(UInt8(ascii: "\""))
        var utf8 = value.utf8
        let fast: Void? = utf8.withContiguousStorageIfAvailable { buffer in
            appendEscaped(buffer)
        }
        if fast == nil {
            utf8 = value.utf8
            appendEscaped(Array(utf8))
        }
        bytes.append(UInt8(ascii: "\""))
    }

    private mutating func appendEscaped(_ buffer: some Collection<UInt8>) {
        var start = buffer.startIndex
        var index = start
        while index != buffer.endIndex {
            let byte = buffer[index]
            if byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") {
                bytes.append(contentsOf: buffer[start..<index])
                appendEscape(byte)
                start = buffer.index(after: index)
            }
            index = buffer.index(after: index)
        }
        bytes.append(contentsOf: buffer[start..<index])
    }

    private mutating func appendEscape(_ byte: UInt8) {
        bytes.append(UInt8(ascii: "\\"))
        switch byte {
        case UInt8(ascii: "\""): bytes.append(UInt8(ascii: "\""))
        case UInt8(ascii: "\\"): bytes.append(UInt8(ascii: "\\"))
        case 0x0A: bytes.append(UInt8(ascii: "n"))
        case 0x0D: bytes.append(UInt8(ascii: "r"))
        case 0x09: bytes.append(UInt8(ascii: "t"))
        default:
            // \u00XX, with no allocation: control bytes can fill a whole megabyte-long value.
            let high = byte >> 4, low = byte & 0xF
            bytes.append(UInt8(ascii: "u"))
            bytes.append(UInt8(ascii: "0"))
            bytes.append(UInt8(ascii: "0"))
            bytes.append(high < 10 ? UInt8(ascii: "0") + high : UInt8(ascii: "a") + high - 10)
            bytes.append(low < 10 ? UInt8(ascii: "0") + low : UInt8(ascii: "a") + low - 10)
        }
    }

    /// Appends an integer.
    mutating func int(_ value: some BinaryInteger) {
        if value < 0 { bytes.append(UInt8(ascii: "-")) }
        var magnitude = UInt64(truncatingIfNeeded: value.magnitude)
        if magnitude < 10 {
            bytes.append(UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: magnitude))
            return
        }
        // Digits are produced right to left into a small stack buffer, then copied once.
        var digits: (UInt64, UInt64, UInt64) = (0, 0, 0)
        withUnsafeMutableBytes(of: &digits) { buffer in
            var index = buffer.count
            while magnitude > 0 {
                index -= 1
                buffer[index] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: magnitude % 10)
                magnitude /= 10
            }
            bytes.append(contentsOf: UnsafeRawBufferPointer(rebasing: buffer[index...]))
        }
    }

    /// Appends a double; a non-finite one is written as the string `"NaN"`, `"Infinity"` or
    /// `"-Infinity"`, since JSON has no form for it.
    mutating func double(_ value: Double) {
        if value.isFinite {
            bytes.append(contentsOf: value.description.utf8)
        } else {
            string(JSONText.nonFiniteName(value))
        }
    }

    /// Appends `true` or `false`.
    mutating func bool(_ value: Bool) { value ? raw("true") : raw("false") }

    /// Appends `null`.
    mutating func null() { raw("null") }

    /// Appends a date as a quoted ISO-8601 string with milliseconds, in UTC.
    mutating func date(_ value: Date) { timestamp(milliseconds: JSONText.milliseconds(value)) }

    /// Appends a time in milliseconds since 1970 as a quoted ISO-8601 UTC string with
    /// milliseconds, `"2026-11-21T10:00:00.123Z"`, without allocating.
    mutating func timestamp(milliseconds: Int64) {
        bytes.append(UInt8(ascii: "\""))
        iso8601Digits(milliseconds: milliseconds)
        bytes.append(UInt8(ascii: "\""))
    }

    /// Civil date and time from days since 1970 (Howard Hinnant's algorithm), pure arithmetic.
    private mutating func iso8601Digits(milliseconds: Int64) {
        var days = milliseconds >= 0 ? milliseconds / 86_400_000 : (milliseconds - 86_399_999) / 86_400_000
        let millisOfDay = milliseconds - days * 86_400_000
        days += 719_468
        let era = (days >= 0 ? days : days - 146_096) / 146_097
        let dayOfEra = days - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthPrime = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * monthPrime + 2) / 5 + 1
        let month = monthPrime < 10 ? monthPrime + 3 : monthPrime - 9
        let year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
        if year < 0 { bytes.append(UInt8(ascii: "-")) }
        padded(year.magnitude, width: 4)
        bytes.append(UInt8(ascii: "-"))
        padded(UInt64(month), width: 2)
        bytes.append(UInt8(ascii: "-"))
        padded(UInt64(day), width: 2)
        bytes.append(UInt8(ascii: "T"))
        padded(UInt64(millisOfDay / 3_600_000), width: 2)
        bytes.append(UInt8(ascii: ":"))
        padded(UInt64(millisOfDay / 60_000 % 60), width: 2)
        bytes.append(UInt8(ascii: ":"))
        padded(UInt64(millisOfDay / 1000 % 60), width: 2)
        bytes.append(UInt8(ascii: "."))
        padded(UInt64(millisOfDay % 1000), width: 3)
        bytes.append(UInt8(ascii: "Z"))
    }

    /// Appends `value` in decimal with at least `width` digits.
    private mutating func padded(_ value: UInt64, width: Int) {
        var divisor: UInt64 = 1
        for _ in 1..<width { divisor *= 10 }
        while divisor > 1, value / divisor == 0 {
            bytes.append(UInt8(ascii: "0"))
            divisor /= 10
        }
        int(value)
    }

    /// Appends a ``UserDataValue``, cut at ``UserDataValue/maximumDepth``.
    mutating func value(_ value: UserDataValue) {
        switch value {
        case .string(let text): string(text)
        case .int(let number): int(number)
        case .double(let number): double(number)
        case .bool(let flag): bool(flag)
        case .date(let date): self.date(date)
        case .array(let values):
            guard enterContainer() else { return }
            bytes.append(UInt8(ascii: "["))
            for (index, element) in values.enumerated() {
                if index > 0 { bytes.append(UInt8(ascii: ",")) }
                self.value(element)
            }
            bytes.append(UInt8(ascii: "]"))
            nesting -= 1
        case .object(let values): object(values)
        case .null: null()
        }
    }

    /// Appends an object, cut at ``UserDataValue/maximumDepth``.
    /// - Parameters:
    ///   - values: the members.
    ///   - sortedKeys: write keys in sorted order, so equal data gives equal bytes (default);
    ///     `false` writes them in the dictionary's order, which is cheaper.
    mutating func object(_ values: [String: UserDataValue], sortedKeys: Bool = true) {
        guard enterContainer() else { return }
        bytes.append(UInt8(ascii: "{"))
        if values.count == 1 || !sortedKeys {
            for (index, pair) in values.enumerated() {
                if index > 0 { bytes.append(UInt8(ascii: ",")) }
                member(pair.key, pair.value)
            }
        } else if !values.isEmpty {
            for (index, pair) in values.sorted(by: { $0.key < $1.key }).enumerated() {
                if index > 0 { bytes.append(UInt8(ascii: ",")) }
                member(pair.key, pair.value)
            }
        }
        bytes.append(UInt8(ascii: "}"))
        nesting -= 1
    }

    /// Opens one more level of the value being written, or, at ``UserDataValue/maximumDepth``,
    /// writes the placeholder instead and says so.
    private mutating func enterContainer() -> Bool {
        guard nesting < UserDataValue.maximumDepth else {
            truncated = true
            value(UserDataValue.truncationPlaceholder)
            return false
        }
        nesting += 1
        return true
    }

    private mutating func member(_ key: String, _ value: UserDataValue) {
        string(key)
        bytes.append(UInt8(ascii: ":"))
        self.value(value)
    }
}
