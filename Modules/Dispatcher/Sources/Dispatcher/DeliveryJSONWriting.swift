import Foundation
import Tracking

/// Fast writers for the values every wire format needs: ids, timestamps, spliced fragments.
extension JSONWriter {
    private static let hexDigits: [UInt8] = Array("0123456789abcdef".utf8)

    /// Appends `uuid` as a quoted, lowercase RFC 9562 string.
    mutating func uuid(_ uuid: UUID) {
        var text = [UInt8](repeating: UInt8(ascii: "\""), count: 38)
        var position = 1
        withUnsafeBytes(of: uuid.uuid) { raw in
            for (index, byte) in raw.enumerated() {
                if index == 4 || index == 6 || index == 8 || index == 10 {
                    text[position] = UInt8(ascii: "-")
                    position += 1
                }
                text[position] = Self.hexDigits[Int(byte >> 4)]
                text[position + 1] = Self.hexDigits[Int(byte & 0x0F)]
                position += 2
            }
        }
        raw(bytes: text)
    }

    /// Appends a time in milliseconds since 1970 as a quoted ISO-8601 UTC string with
    /// milliseconds, `"2026-11-21T10:00:00.123Z"`, without allocating strings.
    mutating func isoTimestamp(milliseconds: Int64) {
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
        guard (0...9999).contains(year) else {
            string(JSONText.iso8601(Date(timeIntervalSince1970: Double(milliseconds) / 1000)))
            return
        }
        var text = [UInt8](repeating: 0, count: 26)
        func put(_ value: Int64, width: Int, at offset: Int) {
            var rest = value
            for position in stride(from: offset + width - 1, through: offset, by: -1) {
                text[position] = UInt8(ascii: "0") + UInt8(rest % 10)
                rest /= 10
            }
        }
        text[0] = UInt8(ascii: "\"")
        put(year, width: 4, at: 1)
        text[5] = UInt8(ascii: "-")
        put(month, width: 2, at: 6)
        text[8] = UInt8(ascii: "-")
        put(day, width: 2, at: 9)
        text[11] = UInt8(ascii: "T")
        put(millisOfDay / 3_600_000, width: 2, at: 12)
        text[14] = UInt8(ascii: ":")
        put(millisOfDay / 60_000 % 60, width: 2, at: 15)
        text[17] = UInt8(ascii: ":")
        put(millisOfDay / 1000 % 60, width: 2, at: 18)
        text[20] = UInt8(ascii: ".")
        put(millisOfDay % 1000, width: 3, at: 21)
        text[24] = UInt8(ascii: "Z")
        text[25] = UInt8(ascii: "\"")
        raw(bytes: text)
    }

    /// Appends a date as a quoted ISO-8601 UTC string with milliseconds.
    mutating func isoTimestamp(_ date: Date) {
        isoTimestamp(milliseconds: Int64((date.timeIntervalSince1970 * 1000).rounded(.down)))
    }

    /// Appends the members of a scanned object (without braces), skipping those named in
    /// `skipping` and prefixing the keys named in `renaming` with `prefix` (names as UTF-8).
    /// - Returns: whether anything was written.
    @discardableResult
    mutating func members(
        of object: DeliveryJSONMembers, leadingComma: Bool, skipping: [[UInt8]] = [],
        renaming: [[UInt8]] = [], prefix: [UInt8] = []
    ) -> Bool {
        var wroteAny = false
        for member in object.members {
            if !skipping.isEmpty, skipping.contains(where: { object.key(of: member, is: $0) }) { continue }
            if leadingComma || wroteAny { raw(",") }
            raw("\"")
            if !renaming.isEmpty, renaming.contains(where: { object.key(of: member, is: $0) }) {
                raw(bytes: prefix)
            }
            raw(bytes: object.bytes[member.key])
            raw("\":")
            raw(bytes: object.bytes[member.value])
            wroteAny = true
        }
        return wroteAny
    }
}
