import Foundation
import Testing
import TestSupport
@testable import Tracking
import TrackingTestKit

/// userData nested deeper than `UserDataValue.maximumDepth` is cut where events are built and
/// flagged; the JSON writer cuts the same way for anything else; nothing recurses on depth.
@Suite("UserData depth limit")
struct UserDataDepthTests {
    typealias Kind = DeepValue.Kind

    /// Takes a chain apart from the top, one level at a time, so that releasing it does not
    /// recurse once per level (Swift's release of nested buffers does, beyond ~40,000 levels
    /// on an 8 MB stack).
    static func dismantle(_ value: inout UserDataValue) {
        while true {
            let next: UserDataValue
            switch value {
            case .object(let members) where members.count == 1: next = members.values.first ?? .null
            case .array(let elements) where elements.count == 1: next = elements[0]
            default: return
            }
            value = next
        }
    }

    /// The largest bracket nesting in JSON text, strings skipped.
    static func nesting(_ json: String) -> Int {
        var deepest = 0, depth = 0, inString = false, escaped = false
        for byte in json.utf8 {
            if inString {
                if escaped {
                    escaped = false
                } else if byte == UInt8(ascii: "\\") {
                    escaped = true
                } else if byte == UInt8(ascii: "\"") {
                    inString = false
                }
                continue
            }
            switch byte {
            case UInt8(ascii: "\""): inString = true
            case UInt8(ascii: "{"), UInt8(ascii: "["): depth += 1; deepest = max(deepest, depth)
            case UInt8(ascii: "}"), UInt8(ascii: "]"): depth -= 1
            default: break
            }
        }
        return deepest
    }

    @Test func theLimitThePlaceholderAndTheFlagAreDocumentedValues() {
        #expect(UserDataValue.maximumDepth == 32)
        #expect(UserDataValue.truncationPlaceholder == .string("[truncated]"))
        #expect(EventFlag.userDataTruncated == EventFlag(code: "nesting_truncated", detail: "userData"))
        #expect(EventFlag.contextTruncated == EventFlag(code: "nesting_truncated", detail: "context"))
    }

    @Test("32 levels, the userData object included, pass untouched; the 33rd is cut and flagged", arguments: Kind.allCases)
    func cutsExactlyBeyondTheLimit(kind: Kind) throws {
        let recorder = RecordingPlugin()
        let reporter = EventReporter<Search>(plugins: [recorder])
        let fits: UserData = ["deep": DeepValue.make(kind, depth: 31), "flat": 1]
        reporter.send(name: .query, action: .submitted, userData: fits)
        reporter.send(name: .query, action: .submitted, userData: ["deep": DeepValue.make(kind, depth: 32), "flat": 1])

        let kept = try #require(recorder.events.first)
        #expect(kept.userData == fits)
        #expect(kept.flags.isEmpty)
        #expect(Self.nesting(JSONText.encode(.object(kept.userData))) == 32)

        let cut = try #require(recorder.events.last)
        let (containers, bottom) = DeepValue.chain(cut.userData["deep"])
        #expect(containers == 31)
        #expect(bottom == UserDataValue.truncationPlaceholder)
        #expect(cut.userData["flat"] == 1)
        #expect(cut.flags == [.userDataTruncated])
        #expect(Self.nesting(JSONText.encode(.object(cut.userData))) == 32)
    }

    @Test func scalarsAtTheLimitStayAndOnlyTheDeeperContainersGo() throws {
        let recorder = RecordingPlugin()
        let atTheLimit: UserDataValue = ["leaf": 1, "list": [2], "empty": [:], "infinity": .double(.infinity)]
        let outer = DeepValue.make(.array, depth: 30, bottom: atTheLimit)
        EventReporter<Search>(plugins: [recorder]).send(name: .query, action: .submitted, userData: ["deep": outer])
        let event = try #require(recorder.events.first)
        let (containers, bottom) = DeepValue.chain(event.userData["deep"])
        #expect(containers == 30)
        #expect(bottom == ["leaf": 1, "list": "[truncated]", "empty": "[truncated]", "infinity": .double(.infinity)])
        #expect(event.flags == [.userDataTruncated, .nonFiniteNumber])
    }

    @Test func aNonFiniteNumberThatWasCutAwayIsNotFlagged() throws {
        let recorder = RecordingPlugin()
        EventReporter<Search>(plugins: [recorder])
            .send(name: .query, action: .submitted, userData: ["deep": DeepValue.make(.object, depth: 40, bottom: .double(.infinity))])
        #expect(recorder.events.first?.flags == [.userDataTruncated])
    }

    @Test func ordinaryDataIsUntouchedAndUnflagged() throws {
        let recorder = RecordingPlugin()
        let data: UserData = ["cardType": "Mastercard", "quantity": 3, "items": [["sku": "a"], ["sku": "b"]], "total": 19.99]
        EventReporter<Search>(plugins: [recorder]).send(name: .query, action: .submitted, userData: data)
        #expect(recorder.events.first?.userData == data)
        #expect(recorder.events.first?.flags == [])
    }

    @Test func sendingSeveralEventsCutsEachOne() {
        let recorder = RecordingPlugin()
        EventReporter<Search>(plugins: [recorder]).send(contentsOf: [
            (.query, .submitted, ["deep": DeepValue.make(.array, depth: 100)]), (.query, .submitted, ["flat": true]),
        ])
        #expect(recorder.events.map(\.flags) == [[.userDataTruncated], []])
        #expect(DeepValue.chain(recorder.events.first?.userData["deep"]).containers == 31)
    }

    @Test("The console shows a 10,000-deep value cut, as JSON, with the flag", arguments: Kind.allCases)
    func theConsoleSeesTheCutValue(kind: Kind) throws {
        let buffer = TextBuffer()
        EventReporter<Search>(plugins: [ConsoleReporter(stream: buffer)])
            .send(name: .query, action: .submitted, userData: ["deep": DeepValue.make(kind, depth: 10_000)])
        let line = try #require(buffer.lines.first)
        #expect(line.hasPrefix("[Search] query · submitted  {\"deep\":"))
        #expect(line.hasSuffix("\"[truncated]\"" + String(repeating: kind == .object ? "}" : "]", count: 31) + "}  ⚑ nesting_truncated(userData)"))
        #expect(Self.nesting(line) == 32)
    }

    @Test("description cuts any value at the limit", arguments: Kind.allCases)
    func descriptionIsDepthSafe(kind: Kind) {
        #expect(Self.nesting(DeepValue.make(kind, depth: 10_000).description) == 32)
        #expect(Self.nesting(DeepValue.make(kind, depth: 32).description) == 32)
    }

    @Test("Nothing the library does with a 50,000-deep value recurses per level", arguments: Kind.allCases)
    func noRecursionPerLevel(kind: Kind) {
        var value = DeepValue.make(kind, depth: 50_000, bottom: .double(.nan))
        #expect(value.containsNonFiniteNumber)
        #expect(Self.nesting(JSONText.encode(value)) == 32)
        let recorder = RecordingPlugin()
        let buffer = TextBuffer()
        EventReporter<Search>(plugins: [recorder, ConsoleReporter(stream: buffer)])
            .send(name: .query, action: .submitted, userData: ["deep": value])
        #expect(recorder.events.first?.flags == [.userDataTruncated])
        #expect(Self.nesting(buffer.text) == 32)
        Self.dismantle(&value)
        #expect(value.doubleValue?.isNaN == true)
    }
}
