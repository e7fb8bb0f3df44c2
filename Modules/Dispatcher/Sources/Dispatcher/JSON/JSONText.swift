import Foundation

/// The text forms the Dispatcher's encoders share with ``JSONWriter``.
enum JSONText {
    /// The string a non-finite double is written as: `NaN`, `Infinity` or `-Infinity`.
    static func nonFiniteName(_ value: Double) -> String {
        value.isNaN ? "NaN" : (value > 0 ? "Infinity" : "-Infinity")
    }

    /// Formats a date as ISO-8601 in UTC with milliseconds, `2026-11-21T10:00:00.123Z`.
    ///
    /// Pure arithmetic (no formatter, no locale), so it is fast and thread-safe.
    static func iso8601(_ date: Date) -> String {
        var writer = JSONWriter(capacity: 26)
        writer.timestamp(milliseconds: milliseconds(date))
        return String(decoding: writer.bytes.dropFirst().dropLast(), as: UTF8.self)
    }

    /// A date in whole milliseconds since 1970, rounded to the nearest.
    static func milliseconds(_ date: Date) -> Int64 {
        Int64((date.timeIntervalSince1970 * 1000).rounded())
    }
}
