import Foundation
import Testing
import TestSupport
@testable import Tracking

/// The strict RFC 8259 scanner itself: every deviation is found at its line and column, every
/// valid text passes, nesting is capped without recursion, and the scan is linear.
@Suite("StrictJSONScanner")
struct StrictJSONScannerTests {
    @Test("Each deviation is found at its line and column", arguments: JSONDeviation.all)
    func deviationIsFound(deviation: JSONDeviation) throws {
        let error = try #require(StrictJSONScanner.firstError(in: deviation.bytes))
        #expect(error.line == deviation.line && error.column == deviation.column, "\(error)")
        #expect(error.reason.contains(deviation.reason), "\(error)")
        #expect(error.description.hasPrefix(deviation.position))
    }

    @Test("Valid JSON texts pass", arguments: [
        "{}", "[]", "0", "-0", "1", "-12.5e-3", "0.5E+2", "1e9", "true", "false", "null", #""""#,
        #""\" \\ \/ \b \f \n \r \t \u0041 \u00e9 \ud83d\ude00 é 😀""#,
        " \t\r\n{\"a\": [1, {\"b\": null}], \"c\": {\"a\": 1}}\r\n",
        #"[{"k": 1}, {"k": 2}]"#, #"{"a": {"a": {"a": 1}}}"#, #"{"": 1, " ": 2}"#, #"["\u0000", "a\u001fb"]"#,
    ])
    func validTextPasses(text: String) {
        #expect(StrictJSONScanner.firstError(in: Array(text.utf8)) == nil)
    }

    @Test("Lines end at LF, CRLF or a lone CR: the error's line and column are the same in each")
    func lineEndingsCountAlike() throws {
        for ending in ["\n", "\r\n", "\r"] {
            let text = ["{", #"  "a": 1"#, "  x}"].joined(separator: ending)
            let error = try #require(StrictJSONScanner.firstError(in: Array(text.utf8)), "\(Array(ending.utf8))")
            #expect(error.line == 3 && error.column == 3, "\(Array(ending.utf8)): \(error)")
        }
    }

    @Test("Keys the decoder would merge are duplicates: canonically equivalent spellings")
    func canonicallyEquivalentKeysAreDuplicates() throws {
        let error = try #require(StrictJSONScanner.firstError(in: Array(#"{"é": 1, "e\u0301": 2}"#.utf8)))
        #expect(error.line == 1 && error.column == 10 && error.reason.hasPrefix("duplicate key"), "\(error)")
    }

    @Test("Nesting: 512 levels pass, 513 are refused, and 100 000 are refused at once without recursion")
    func nestingIsCapped() throws {
        let deepest = String(repeating: "[", count: 512) + String(repeating: "]", count: 512)
        #expect(StrictJSONScanner.firstError(in: Array(deepest.utf8)) == nil)
        let objects = String(repeating: #"{"a":"#, count: 512) + "1" + String(repeating: "}", count: 512)
        #expect(StrictJSONScanner.firstError(in: Array(objects.utf8)) == nil)
        let hostile = [UInt8](repeating: UInt8(ascii: "["), count: 100_000)
        let error = try #require(StrictJSONScanner.firstError(in: hostile))
        #expect(error.column == 513 && error.reason.contains("nesting deeper than 512"), "\(error)")
    }

    @Test("A large text is scanned in linear time: 20 000 objects well under the bound")
    func largeTextIsLinear() throws {
        let member = #"{"id": 12345, "name": "caf\u00e9 é", "tags": ["a", "b"], "price": -1.5e3, "ok": true}"#
        let text = Array(("[" + Array(repeating: member, count: 20_000).joined(separator: ",\n") + "]").utf8)
        let start = Date()
        #expect(StrictJSONScanner.firstError(in: text) == nil)
        var broken = text
        broken.insert(UInt8(ascii: ","), at: broken.count - 1)
        let error = try #require(StrictJSONScanner.firstError(in: broken))
        #expect(error.line == 20_000 && error.reason == "trailing comma before ']'", "\(error)")
        #expect(Date().timeIntervalSince(start) < 5, "\(text.count) bytes took \(Date().timeIntervalSince(start)) s")
    }
}
