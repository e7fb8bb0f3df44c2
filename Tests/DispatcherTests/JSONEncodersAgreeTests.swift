import Foundation
import Testing
@testable import Dispatcher
import TestSupport
@testable import Tracking

/// The core writes JSON text with a small string builder (`Tracking.JSONText`), the Dispatcher
/// with its byte writer (`JSONWriter`): the same value must give the same text in both.
@Suite("Core and Dispatcher JSON encoders agree")
struct JSONEncodersAgreeTests {
    func dispatcherText(_ value: UserDataValue) -> String {
        var writer = JSONWriter()
        writer.value(value)
        return writer.string
    }

    static let controlCharacters = String(String.UnicodeScalarView((0..<0x20).compactMap(Unicode.Scalar.init)))

    static let corpus: [UserDataValue] = [
        .null, true, false, "", "plain",
        .string(#"say "hi" \ bye / done"#),
        .string(controlCharacters),
        "line\u{2028}separator\u{2029}paragraph \u{7F} \u{85}",
        "Grüße 🛒 日本 👩‍👩‍👧 🇯🇵 e\u{301}",
        0, 1, -1, .int(Int(Int64.max)), .int(Int(Int64.min)),
        .double(0), .double(-0.0), .double(0.1), .double(1e21), .double(1e-7), .double(-1.5),
        .double(.greatestFiniteMagnitude), .double(.leastNonzeroMagnitude),
        .double(.nan), .double(.infinity), .double(-.infinity),
        .date(Date(timeIntervalSince1970: 0)),
        .date(Date(timeIntervalSince1970: -0.5)),
        .date(Date(timeIntervalSince1970: 951_782_400)),
        .date(Date(timeIntervalSince1970: 1_700_000_000.125)),
        .date(Date(timeIntervalSince1970: 253_402_300_799.875)),
        .date(Date(timeIntervalSince1970: -62_135_596_800)),
        .date(Date(timeIntervalSince1970: -80_000_000_000)),
        [], [:], [1, "two", nil, [3.5, [true]]],
        ["zeta": 1, "alpha": ["b": 2, "a": 1], "mid": [true, nil], "Zed": "upper", "é": "accent", "e": 0, "": "empty"],
        ["only": ["nested": ["keys": ["z": 1, "y": 2]]]],
        DeepValue.make(.object, depth: UserDataValue.maximumDepth),
        DeepValue.make(.array, depth: UserDataValue.maximumDepth),
        DeepValue.make(.object, depth: UserDataValue.maximumDepth + 8, bottom: .double(.nan)),
        DeepValue.make(.array, depth: 5_000),
        ["deep": DeepValue.make(.object, depth: 100), "shallow": 1],
    ]

    @Test func everyValueOfTheCorpusGivesTheSameText() {
        for value in Self.corpus {
            #expect(Tracking.JSONText.encode(value) == dispatcherText(value))
        }
    }

    @Test func aValueDeeperThanTheLimitIsCutToThePlaceholderByBoth() throws {
        let deep = DeepValue.make(.object, depth: UserDataValue.maximumDepth + 1)
        let core = Tracking.JSONText.encode(deep)
        #expect(core == dispatcherText(deep))
        let parsed = DeepValue.chain(try JSONSerialization.jsonObject(with: Data(core.utf8)))
        #expect(parsed.containers == UserDataValue.maximumDepth && parsed.bottom as? String == DeepValue.placeholder)
    }

    @Test func datesAcrossTwelveThousandYearsGiveTheSameText() {
        var generator = SeededGenerator(seed: 23)
        for _ in 0..<20_000 {
            let milliseconds = Int64.random(in: -250_000_000_000_000...253_402_300_799_999, using: &generator)
            let date = Date(timeIntervalSince1970: Double(milliseconds) / 1000)
            var writer = JSONWriter()
            writer.date(date)
            let expected = writer.string
            let core = "\"" + Tracking.JSONText.iso8601(date) + "\""
            if core != expected {
                Issue.record("\(milliseconds): \(core) vs \(expected)")
                return
            }
        }
    }

    @Test func randomObjectsGiveTheSameText() {
        var generator = SeededGenerator(seed: 5)
        let keys = ["a", "B", "é", "e\u{301}", "🛒", "key\n", "\"q\"", "z", "A", "10", "9"]
        for _ in 0..<500 {
            var object: [String: UserDataValue] = [:]
            for _ in 0..<Int.random(in: 0...8, using: &generator) {
                let key = keys.randomElement(using: &generator) ?? "a"
                object[key] = [.int(Int.random(in: -1000...1000, using: &generator)), .double(Double.random(in: -1e6...1e6, using: &generator)), .string(key), [.bool(true)]].randomElement(using: &generator)
            }
            #expect(Tracking.JSONText.encode(.object(object)) == dispatcherText(.object(object)))
        }
    }
}
