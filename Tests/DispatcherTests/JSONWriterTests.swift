import Foundation
import Testing
@testable import Dispatcher
import Tracking

/// The hand-written JSON writer: escaping and numbers, checked against `JSONSerialization`.
struct JSONWriterTests {
    func written(_ text: String) -> String {
        var writer = JSONWriter()
        writer.string(text)
        return writer.string
    }

    func encoded(_ value: UserDataValue) -> String {
        var writer = JSONWriter()
        writer.value(value)
        return writer.string
    }

    @Test func escapesQuotesAndBackslashes() {
        #expect(written(#"say "hi" \ bye"#) == #""say \"hi\" \\ bye""#)
    }

    @Test func escapesControlCharacters() {
        #expect(written("a\nb\rc\td") == #""a\nb\rc\td""#)
        #expect(written("\u{0}\u{1}\u{8}\u{C}\u{1F}") == #""\u0000\u0001\u0008\u000c\u001f""#)
    }

    @Test func leavesUnicodeAsUTF8() {
        #expect(written("Grüße 🛒 日本 \u{7F} \u{2028}") == "\"Grüße 🛒 日本 \u{7F} \u{2028}\"")
    }

    @Test func everyControlCharacterParsesBack() throws {
        let all = String(String.UnicodeScalarView((0..<0x20).compactMap(Unicode.Scalar.init))) + "\"\\/é🛒"
        let json = "[" + written(all) + "]"
        let parsed = try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String]
        #expect(parsed == [all])
    }

    @Test func writesNumbersBooleansAndNull() {
        var writer = JSONWriter()
        writer.raw("[")
        writer.int(0); writer.raw(",")
        writer.int(-1234567890); writer.raw(",")
        writer.int(Int.min); writer.raw(",")
        writer.double(1.5); writer.raw(",")
        writer.double(.infinity); writer.raw(",")
        writer.bool(true); writer.raw(",")
        writer.null()
        writer.raw("]")
        #expect(writer.string == #"[0,-1234567890,-9223372036854775808,1.5,"Infinity",true,null]"#)
    }

    @Test func objectsHaveSortedKeysSoOutputIsStable() {
        let value: UserDataValue = ["zeta": 1, "alpha": ["b": 2, "a": 1], "mid": [true, nil]]
        #expect(encoded(value) == #"{"alpha":{"a":1,"b":2},"mid":[true,null],"zeta":1}"#)
    }

    @Test func writtenUserDataParsesBackToTheSameValues() throws {
        let value: UserDataValue = ["name": "Zoë \"Z\"\n", "n": -7, "x": 0.25, "ok": false, "tags": ["a", "\\"]]
        let parsed = try #require(try JSONSerialization.jsonObject(with: Data(encoded(value).utf8)) as? [String: Any])
        #expect(parsed["name"] as? String == "Zoë \"Z\"\n")
        #expect(parsed["n"] as? Int == -7)
        #expect(parsed["x"] as? Double == 0.25)
        #expect(parsed["ok"] as? Bool == false)
        #expect(parsed["tags"] as? [String] == ["a", "\\"])
    }
}
