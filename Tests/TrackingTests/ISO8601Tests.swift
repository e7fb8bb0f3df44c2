import Foundation
import Testing
import TestSupport
@testable import Tracking

/// `JSONText.iso8601` against Foundation's `ISO8601DateFormatter`.
struct ISO8601Tests {
    static func formatter() -> ISO8601DateFormatter {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return formatter
    }

    @Test func knownDates() {
        #expect(JSONText.iso8601(Date(timeIntervalSince1970: 0)) == "1970-01-01T00:00:00.000Z")
        #expect(JSONText.iso8601(Date(timeIntervalSince1970: 951_782_400)) == "2000-02-29T00:00:00.000Z")
        #expect(JSONText.iso8601(Date(timeIntervalSince1970: 1_700_000_000.125)) == "2023-11-14T22:13:20.125Z")
        #expect(JSONText.iso8601(Date(timeIntervalSince1970: -0.5)) == "1969-12-31T23:59:59.500Z")
        #expect(JSONText.iso8601(Date(timeIntervalSince1970: 253_402_300_799.875)) == "9999-12-31T23:59:59.875Z")
    }

    /// Dates from 1583 (the formatter switches to the Julian calendar before the Gregorian reform)
    /// to 9999, with fractions that are exact in binary, so only the calendar arithmetic is tested.
    @Test func matchesTheFormatterForManyDates() {
        let formatter = Self.formatter()
        var generator = SeededGenerator(seed: 7)
        var mismatches: [String] = []
        for _ in 0..<20_000 {
            let seconds = Int64.random(in: -12_212_553_600...253_402_300_799, using: &generator)
            let eighths = Double(Int.random(in: 0..<8, using: &generator)) / 8
            let date = Date(timeIntervalSince1970: Double(seconds) + eighths)
            let ours = JSONText.iso8601(date)
            let theirs = formatter.string(from: date)
            if ours != theirs, mismatches.count < 5 { mismatches.append("\(seconds)+\(eighths): \(ours) vs \(theirs)") }
        }
        #expect(mismatches.isEmpty, "\(mismatches)")
    }

    /// Whole milliseconds that are not exact in binary: the formatter rounds to the nearest
    /// millisecond, `JSONText.iso8601` rounds down, so a few percent print one millisecond early.
    @Test func matchesTheFormatterForArbitraryMilliseconds() {
        let formatter = Self.formatter()
        var generator = SeededGenerator(seed: 11)
        var mismatches = 0
        for _ in 0..<5_000 {
            let milliseconds = Int64.random(in: 0...4_102_444_800_000, using: &generator)
            let date = Date(timeIntervalSince1970: Double(milliseconds) / 1000)
            if JSONText.iso8601(date) != formatter.string(from: date) { mismatches += 1 }
        }
        #expect(mismatches == 0)
    }
}
