/// Where JSON text breaks RFC 8259, as a 1-based line and column, and what is wrong there:
/// the result of ``StrictJSONScanner``, for messages a person can act on.
struct JSONSyntaxError: Error, Equatable, CustomStringConvertible {
    /// The 1-based line of the error.
    var line: Int
    /// The 1-based column of the error, in characters (Unicode scalars) from the line's start.
    var column: Int
    /// What was expected or found.
    var reason: String

    /// `line 3, column 5: expected a quoted key, found 'x'`.
    var description: String { "line \(line), column \(column): \(reason)" }

    /// The error at byte `offset` of `bytes`.
    init(at offset: Int, reason: String, in bytes: [UInt8]) {
        (line, column) = Self.position(of: offset, in: bytes)
        self.reason = reason
    }

    /// The 1-based line and column of byte `offset`. A line ends at `\n`, `\r\n` or a lone `\r`
    /// (all whitespace to RFC 8259); a column counts characters, not bytes (UTF-8 continuation
    /// bytes are skipped).
    static func position(of offset: Int, in bytes: [UInt8]) -> (line: Int, column: Int) {
        let end = min(max(offset, 0), bytes.count)
        var line = 1
        var column = 1
        for index in 0..<end {
            let byte = bytes[index]
            let endsLine = byte == UInt8(ascii: "\n")
                || (byte == UInt8(ascii: "\r") && (index + 1 >= bytes.count || bytes[index + 1] != UInt8(ascii: "\n")))
            if endsLine {
                line += 1
                column = 1
            } else if byte == UInt8(ascii: "\r") {
                continue
            } else if byte & 0xC0 != 0x80 {
                column += 1
            }
        }
        return (line, column)
    }

    /// `'x'` for a printable ASCII byte, `byte 0xC3` for any other.
    static func found(_ byte: UInt8) -> String {
        byte >= 0x20 && byte < 0x7F ? "'\(Character(Unicode.Scalar(byte)))'" : "byte 0x\(hex(byte))"
    }

    /// Two uppercase hex digits.
    static func hex(_ byte: UInt8) -> String {
        let digits = Array("0123456789ABCDEF")
        return "\(digits[Int(byte >> 4)])\(digits[Int(byte & 0x0F)])"
    }
}
