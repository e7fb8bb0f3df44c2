/// Strings for ``StrictJSONScanner``: escapes, surrogate pairs, control characters and UTF-8.
extension StrictJSONScanner {
    /// Scans the string whose opening quote is at `index` and moves past its closing quote.
    /// - Returns: its value when `keepingValue` (for keys), otherwise nil.
    mutating func scanString(keepingValue: Bool) throws -> String? {
        let start = index
        index += 1
        var value: [UInt8] = []
        while index < bytes.count {
            let byte = bytes[index]
            switch byte {
            case UInt8(ascii: "\""):
                index += 1
                return keepingValue ? String(decoding: value, as: UTF8.self) : nil
            case UInt8(ascii: "\\"):
                let scalar = try scanEscape()
                if keepingValue { value.append(contentsOf: String(Character(scalar)).utf8) }
            case 0x00..<0x20:
                throw Failure(offset: index, reason: "unescaped control character U+00\(JSONSyntaxError.hex(byte)) in a string (write it as an escape, e.g. \\n or \\u00\(JSONSyntaxError.hex(byte)))")
            case 0x20..<0x80:
                if keepingValue { value.append(byte) }
                index += 1
            default:
                let length = try utf8SequenceLength()
                if keepingValue { value.append(contentsOf: bytes[index..<index + length]) }
                index += length
            }
        }
        throw Failure(offset: start, reason: "unterminated string: no closing '\"' for the string that starts here")
    }

    /// Scans the escape at `index` (a backslash) and moves past it.
    /// - Returns: the scalar it stands for; a surrogate pair gives one scalar.
    private mutating func scanEscape() throws -> Unicode.Scalar {
        let start = index
        guard index + 1 < bytes.count else {
            throw Failure(offset: index, reason: "unterminated string: it ends in a '\\'")
        }
        let escaped = bytes[index + 1]
        let simple: UInt8? = switch escaped {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): escaped
        case UInt8(ascii: "b"): 0x08
        case UInt8(ascii: "f"): 0x0C
        case UInt8(ascii: "n"): 0x0A
        case UInt8(ascii: "r"): 0x0D
        case UInt8(ascii: "t"): 0x09
        default: nil
        }
        if let simple {
            index += 2
            return Unicode.Scalar(simple)
        }
        guard escaped == UInt8(ascii: "u") else {
            let shown = escaped >= 0x20 && escaped < 0x7F ? "'\\\(Character(Unicode.Scalar(escaped)))'" : "'\\' then \(JSONSyntaxError.found(escaped))"
            throw Failure(offset: index, reason: "invalid escape \(shown) in a string (allowed: \\\" \\\\ \\/ \\b \\f \\n \\r \\t \\uXXXX)")
        }
        let unit = try hexUnit(at: index + 2, escapeAt: start)
        index += 6
        switch unit {
        case 0xDC00...0xDFFF:
            throw Failure(offset: start, reason: "lone low surrogate \\u\(String(unit, radix: 16, uppercase: true)): no high surrogate (\\uD800-\\uDBFF) before it")
        case 0xD800...0xDBFF:
            let lone = "lone high surrogate \\u\(String(unit, radix: 16, uppercase: true)): it must be followed by a low surrogate (\\uDC00-\\uDFFF)"
            guard index + 1 < bytes.count, bytes[index] == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "u") else {
                throw Failure(offset: start, reason: lone)
            }
            let low = try hexUnit(at: index + 2, escapeAt: index)
            guard (0xDC00...0xDFFF).contains(low) else { throw Failure(offset: start, reason: lone) }
            index += 6
            return Unicode.Scalar(0x10000 + ((unit - 0xD800) << 10) + (low - 0xDC00)) ?? "\u{FFFD}"
        default:
            return Unicode.Scalar(unit) ?? "\u{FFFD}"
        }
    }

    /// The four hex digits at `offset`, for the `\u` escape at `escape`.
    private func hexUnit(at offset: Int, escapeAt escape: Int) throws -> UInt32 {
        var unit: UInt32 = 0
        for position in offset..<offset + 4 {
            guard position < bytes.count, let digit = Self.hexValue(bytes[position]) else {
                throw Failure(offset: escape, reason: "invalid \\u escape: expected four hex digits after \\u")
            }
            unit = unit << 4 | digit
        }
        return unit
    }

    private static func hexValue(_ byte: UInt8) -> UInt32? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): UInt32(byte - UInt8(ascii: "0"))
        case UInt8(ascii: "a")...UInt8(ascii: "f"): UInt32(byte - UInt8(ascii: "a") + 10)
        case UInt8(ascii: "A")...UInt8(ascii: "F"): UInt32(byte - UInt8(ascii: "A") + 10)
        default: nil
        }
    }

    /// The length of the well-formed UTF-8 sequence of two to four bytes at `index`
    /// (Unicode's table 3-7: no overlong forms, no surrogates, nothing past U+10FFFF).
    private func utf8SequenceLength() throws -> Int {
        let lead = bytes[index]
        let (length, second): (Int, ClosedRange<UInt8>) = switch lead {
        case 0xC2...0xDF: (2, 0x80...0xBF)
        case 0xE0: (3, 0xA0...0xBF)
        case 0xE1...0xEC, 0xEE...0xEF: (3, 0x80...0xBF)
        case 0xED: (3, 0x80...0x9F)
        case 0xF0: (4, 0x90...0xBF)
        case 0xF1...0xF3: (4, 0x80...0xBF)
        case 0xF4: (4, 0x80...0x8F)
        default: (0, 0x80...0xBF)
        }
        guard length > 0 else { throw Failure(offset: index, reason: "invalid UTF-8: byte 0x\(JSONSyntaxError.hex(lead)) cannot start a character") }
        for position in index + 1..<index + length {
            let expected = position == index + 1 ? second : 0x80...0xBF
            guard position < bytes.count, expected.contains(bytes[position]) else {
                throw Failure(offset: index, reason: "invalid UTF-8: malformed sequence starting with byte 0x\(JSONSyntaxError.hex(lead))")
            }
        }
        return length
    }
}
