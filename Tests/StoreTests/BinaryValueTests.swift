@testable import Dispatcher
import Foundation
import Testing
import TestSupport
import Tracking

/// The binary form the sender writes (``BinaryValue``) reads back as the JSON the JSON encoder
/// writes for the same event, for every value kind, nesting, truncation and number format.
@Suite struct BinaryValueTests {
    private static func event(userData: UserData = [:], context: UserData = [:], flags: [EventFlag] = []) -> TrackedEvent {
        TrackedEvent(category: "c", name: "n", action: "a", userData: userData, context: context, flags: flags)
    }

    /// The JSON form and the binary form of `event`, the latter read back.
    private static func bothForms(_ event: TrackedEvent) throws -> (json: EncodedEvent, binary: EncodedEvent, read: EncodedEvent) {
        let binary = EncodedEvent(journaling: event)
        return (EncodedEvent(event), binary, try binary.readable())
    }

    private static func text(_ bytes: [UInt8]) -> String { String(decoding: bytes, as: UTF8.self) }

    @Test func everyValueKindReadsBackAsTheJSONWriterWritesIt() throws {
        let cases: [UserDataValue] = [
            .null, .bool(true), .bool(false), .int(0), .int(-1), .int(.max), .int(.min), .int(1 << 53),
            .double(19.99), .double(1e21), .double(-0.0), .double(2.0), .double(0.1), .double(1e-7),
            .double(.leastNonzeroMagnitude), .double(1.7976931348623157e308), .double(-1e21), .double(123456.789),
            .double(.nan), .double(.infinity), .double(-.infinity),
            .date(Date(timeIntervalSince1970: 0)), .date(Date(timeIntervalSince1970: 1_763_900_000.123)),
            .date(Date(timeIntervalSince1970: -62_000_000_000.5)),
            .string(""), .string("plain"), .string("quote \" backslash \\ slash /"), .string("tab\tnewline\ncr\r"),
            .string("\u{0}\u{1}\u{1F}\u{7F}"), .string("h\u{00E9}llo \u{4E16}\u{754C} \u{1F600} \u{200B}"),
            .array([]), .object([:]), .array([.int(1), .string("x"), .array([.null])]),
            .object(["k\u{00E9}y\n": .object(["inner": .double(0.5)])]),
        ]
        for value in cases {
            let forms = try Self.bothForms(Self.event(userData: ["v": value]))
            #expect(BinaryValue.isBinary(forms.binary.userDataBlob), "\(value)")
            #expect(Self.text(forms.read.userDataBlob) == Self.text(forms.json.userDataBlob), "\(value)")
        }
        let integralDouble = try Self.bothForms(Self.event(userData: ["v": .double(3)]))
        #expect(Self.text(integralDouble.read.userDataBlob) == #"{"v":3.0}"#)
        let price = try Self.bothForms(Self.event(userData: ["v": .double(19.99)]))
        #expect(Self.text(price.read.userDataBlob) == #"{"v":19.99}"#)
        let escaped = try Self.bothForms(Self.event(userData: ["v": .string("a\"b\\c\u{1}")]))
        #expect(Self.text(escaped.read.userDataBlob) == #"{"v":"a\"b\\c\u0001"}"#)
        let date = try Self.bothForms(Self.event(userData: ["v": .date(Date(timeIntervalSince1970: 1.5))]))
        #expect(Self.text(date.read.userDataBlob) == #"{"v":"1970-01-01T00:00:01.500Z"}"#)
    }

    @Test func varintBoundariesReadBack() throws {
        let numbers: [Int] = [63, 64, -64, -65, 127, 128, 8_191, 8_192, 16_383, 16_384, 1 << 35, -(1 << 35), .max - 1, .min + 1]
        let lengths = [0, 1, 127, 128, 16_383, 16_384]
        var userData: UserData = [:]
        for number in numbers { userData["n\(number)"] = .int(number) }
        for length in lengths { userData[String(repeating: "k", count: max(1, length))] = .string(String(repeating: "v", count: length)) }
        userData["list"] = .array((0..<200).map { .int($0) })
        let forms = try Self.bothForms(Self.event(userData: userData))
        #expect(Self.text(forms.read.userDataBlob) == Self.text(forms.json.userDataBlob))
        let typical = try Self.bothForms(Self.event(userData: ["item": "sku-1", "price": 12.5, "quantity": 3, "gift": false]))
        #expect(typical.binary.userDataBlob.count < typical.json.userDataBlob.count) // smaller than the JSON it stands for
    }

    @Test func manyMembersReadBackAsTheSameValues() throws {
        var userData: UserData = [:]
        for index in 0..<40 { userData["key\(index)"] = index.isMultiple(of: 2) ? .int(index) : .object(["n": .double(Double(index) / 3)]) }
        let forms = try Self.bothForms(Self.event(userData: userData, context: ["app": "demo", "build": 12]))
        let decode = { (bytes: [UInt8]) in try JSONDecoder().decode(UserData.self, from: Data(bytes)) }
        #expect(try decode(forms.read.userDataBlob) == decode(forms.json.userDataBlob))
        #expect(try decode(forms.read.contextBlob) == decode(forms.json.contextBlob))
        #expect(forms.read.userDataBlob.count == forms.json.userDataBlob.count)
        // Nested objects come out with sorted keys, byte for byte as the JSON writer writes them.
        let nested = try Self.bothForms(Self.event(userData: ["o": .object(["b": 1, "a": .object(["z": 1, "y": 2, "é": 3]), "c": .array([.object(["q": 1, "p": 2])])])]))
        #expect(Self.text(nested.read.userDataBlob) == Self.text(nested.json.userDataBlob))
        #expect(Self.text(nested.read.userDataBlob) == #"{"o":{"a":{"y":2,"z":1,"é":3},"b":1,"c":[{"p":2,"q":1}]}}"#)
    }

    @Test func nestingTooDeepIsCutLikeTheJSONWriterAndFlagged() throws {
        for depth in [UserDataValue.maximumDepth - 2, UserDataValue.maximumDepth - 1, UserDataValue.maximumDepth, UserDataValue.maximumDepth + 5] {
            var deep: UserDataValue = "bottom"
            for level in 0..<depth { deep = level.isMultiple(of: 2) ? .array([deep]) : .object(["k": deep]) }
            let forms = try Self.bothForms(Self.event(userData: ["deep": deep], context: ["deep": deep]))
            #expect(Self.text(forms.read.userDataBlob) == Self.text(forms.json.userDataBlob), "depth \(depth)")
            #expect(Self.text(forms.read.contextBlob) == Self.text(forms.json.contextBlob), "depth \(depth)")
            #expect(Self.text(forms.read.flagsBlob) == Self.text(forms.json.flagsBlob), "depth \(depth)")
            let cut = depth + 1 > UserDataValue.maximumDepth
            #expect(forms.read.flagCodes.contains(EventFlag.userDataTruncated.description) == cut, "depth \(depth)")
            #expect(forms.read.flagCodes.contains(EventFlag.contextTruncated.description) == cut, "depth \(depth)")
            #expect(Self.text(forms.read.userDataBlob).contains("[truncated]") == cut, "depth \(depth)")
        }
    }

    @Test func flagsReadBackWithCodesAndDetails() throws {
        let flags = [EventFlag(code: "duplicate"), EventFlag(code: "pii", detail: "e-mail \"x\" \u{00E9}")]
        let forms = try Self.bothForms(Self.event(flags: flags))
        #expect(BinaryValue.isBinary(forms.binary.flagsBlob))
        #expect(forms.read.flagsBlob == forms.json.flagsBlob)
        #expect(try forms.read.decoded().flags == flags)
        #expect(try forms.binary.decoded().flags == flags)
    }

    @Test func emptyPartsStayTheJSONConstants() {
        let event = EncodedEvent(journaling: Self.event())
        #expect(event.userDataBlob == Array("{}".utf8) && event.contextBlob == Array("{}".utf8) && event.flagsBlob == Array("[]".utf8))
    }

    @Test func malformedBlobsAreRefusedNotGuessed() throws {
        let good = EncodedEvent(journaling: Self.event(userData: ["list": .array([.int(1), .string("two")])])).userDataBlob
        for cut in 1..<good.count {
            #expect(throws: BinaryValueError.self) { try BinaryValue.json(Array(good[..<cut])) }
        }
        #expect(throws: BinaryValueError.self) { try BinaryValue.json(good + [0]) }
        #expect(throws: BinaryValueError.self) { try BinaryValue.json([BinaryValue.format, 0x7F]) }
        #expect(throws: BinaryValueError.self) { try BinaryValue.json([BinaryValue.format, BinaryValue.array, 0xFF, 0xFF, 0xFF, 0xFF]) }
        #expect(try BinaryValue.json(Array(#"{"a":1}"#.utf8)) == Array(#"{"a":1}"#.utf8)) // JSON passes through
    }
}
