import Foundation
import Tracking

/// Small JSON text helpers: the core's own, for packages that encode events.
public enum JSONText {
    /// Encodes a value as compact JSON text, objects with sorted keys.
    public static func encode(_ value: UserDataValue) -> String { Tracking.JSONText.encode(value) }

    /// The string a non-finite double is written as: `NaN`, `Infinity` or `-Infinity`.
    public static func nonFiniteName(_ value: Double) -> String { Tracking.JSONText.nonFiniteName(value) }

    /// Formats a date as ISO-8601 in UTC with milliseconds, `2026-11-21T10:00:00.123Z`.
    public static func iso8601(_ date: Date) -> String { Tracking.JSONText.iso8601(date) }

    /// A date in whole milliseconds since 1970, rounded to the nearest.
    public static func milliseconds(_ date: Date) -> Int64 { Tracking.JSONText.milliseconds(date) }
}
