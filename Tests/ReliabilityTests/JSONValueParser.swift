import Tracking

/// A small, strict JSON parser into ``UserDataValue``, independent of the library's own
/// decoding (and much faster than `JSONDecoder` for large runs in debug builds).
///
/// Integers that fit an `Int` become ``UserDataValue/int(_:)``; every other number a double.
struct JSONValueParser {
    /// Where and why the text is not JSON.
    struct Failure: Error, CustomStringConvertible {
        var offset: Int
        var reason: String
        var description: String { "invalid JSON at byte \(offset): \(reason)" }
    }

    private let bytes: [UInt8]
    private var index = 0

    /// Parses one JSON value that makes up the whole of `bytes`.
    static func parse(_ bytes: some Collection<UInt8>) throws -> UserDataValue {
        var parser = JSONValueParser(bytes: Array(bytes))
        let value = try parser.value(depth: 0)
        parser.skipWhitespace()
        guard parser.index == parser.bytes.count else { throw parser.failure("trailing bytes") }
        return value
    }

    private init(bytes: [UInt8]) { self.bytes = bytes }

    private func failure(_ reason: String) -> Failure { Failure(offset: index, reason: reason) }

    private mutating func skipWhitespace() {
        while index < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[index]) { index += 1 }
    }

    private mutating func expect(_ literal: String) throws {
        for byte in literal.utf8 {
            guard index < bytes.count, bytes[index] == byte else { throw failure("expected \(literal)") }
            index += 1
        }
    }

    private mutating func value(depth: Int) throws -> UserDataValue {
        guard depth < 512 else { throw failure("nested too deeply") }
        skipWhitespace()
        guard index < bytes.count else { throw failure("unexpected end") }
        switch bytes[index] {
        case UInt8(ascii: "{"):
            index += 1
            var members: [String: UserDataValue] = [:]
            skipWhitespace()
            if index < bytes.count, bytes[index] == UInt8(ascii: "}") {
                index += 1
                return .object(members)
            }
            while true {
                skipWhitespace()
                let key = try string()
                skipWhitespace()
                try expect(":")
                guard members.updateValue(try value(depth: depth + 1), forKey: key) == nil else { throw failure("duplicate key") }
                skipWhitespace()
                guard index < bytes.count else { throw failure("unterminated object") }
                index += 1
                if bytes[index - 1] == UInt8(ascii: "}") { return .object(members) }
                guard bytes[index - 1] == UInt8(ascii: ",") else { throw failure("expected , or }") }
            }
        case UInt8(ascii: "["):
            index += 1
            var elements: [UserDataValue] = []
            skipWhitespace()
            if index < bytes.count, bytes[index] == UInt8(ascii: "]") {
                index += 1
                return .array(elements)
            }
            while true {
                elements.append(try value(depth: depth + 1))
                skipWhitespace()
                guard index < bytes.count else { throw failure("unterminated array") }
                index += 1
                if bytes[index - 1] == UInt8(ascii: "]") { return .array(elements) }
                guard bytes[index - 1] == UInt8(ascii: ",") else { throw failure("expected , or ]") }
            }
        case UInt8(ascii: "\""): return .string(try string())
        case UInt8(ascii: "t"): try expect("true"); return .bool(true)
        case UInt8(ascii: "f"): try expect("false"); return .bool(false)
        case UInt8(ascii: "n"): try expect("null"); return .null
        default: return try number()
        }
    }

    private mutating func number() throws -> UserDataValue {
        let start = index
        var integral = true
        while index < bytes.count {
            let byte = bytes[index]
            if byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") || byte == UInt8(ascii: "-") {
            } else if byte == UInt8(ascii: ".") || byte == UInt8(ascii: "e") || byte == UInt8(ascii: "E") || byte == UInt8(ascii: "+") {
                integral = false
            } else {
                break
            }
            index += 1
        }
        let text = String(decoding: bytes[start..<index], as: UTF8.self)
        if integral, let integer = Int(text) { return .int(integer) }
        guard let double = Double(text), double.isFinite else { throw Failure(offset: start, reason: "bad number \(text)") }
        return .double(double)
    }

    private mutating func string() throws -> String {
        guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else { throw failure("expected a string") }
        index += 1
        var utf8: [UInt8] = []
        while true {
            guard index < bytes.count else { throw failure("unterminated string") }
            let byte = bytes[index]
            index += 1
            switch byte {
            case UInt8(ascii: "\""):
                return String(decoding: utf8, as: UTF8.self)
            case UInt8(ascii: "\\"):
                guard index < bytes.count else { throw failure("unterminated escape") }
                let escape = bytes[index]
                index += 1
                switch escape {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): utf8.append(escape)
                case UInt8(ascii: "b"): utf8.append(0x08)
                case UInt8(ascii: "f"): utf8.append(0x0C)
                case UInt8(ascii: "n"): utf8.append(0x0A)
                case UInt8(ascii: "r"): utf8.append(0x0D)
                case UInt8(ascii: "t"): utf8.append(0x09)
                case UInt8(ascii: "u"):
                    var code = try hex4()
                    if (0xD800..<0xDC00).contains(code) {
                        try expect("\\u")
                        let low = try hex4()
                        guard (0xDC00..<0xE000).contains(low) else { throw failure("lone high surrogate") }
                        code = 0x10000 + (code - 0xD800) << 10 + (low - 0xDC00)
                    }
                    guard let scalar = Unicode.Scalar(code) else { throw failure("invalid scalar \(code)") }
                    utf8.append(contentsOf: String(scalar).utf8)
                default: throw failure("bad escape")
                }
            default:
                guard byte >= 0x20 else { throw failure("raw control character \(byte) in a string") }
                utf8.append(byte)
            }
        }
    }

    private mutating func hex4() throws -> UInt32 {
        guard index + 4 <= bytes.count, let code = UInt32(String(decoding: bytes[index..<index + 4], as: UTF8.self), radix: 16) else {
            throw failure("bad \\u escape")
        }
        index += 4
        return code
    }
}
