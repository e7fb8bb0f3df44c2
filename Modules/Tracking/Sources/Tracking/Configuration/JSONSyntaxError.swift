/// Where JSON text stops being valid, as a line and column, for messages a person can act on.
///
/// Foundation's decoder says only "The given data was not valid JSON." on Linux; this scan
/// finds the first byte that breaks the grammar (RFC 8259). It keeps its nesting on a heap
/// stack, so deeply nested input cannot exhaust the thread's stack.
struct JSONSyntaxError: Equatable, CustomStringConvertible {
    /// The 1-based line of the error.
    var line: Int
    /// The 1-based column of the error, in characters (Unicode scalars) from the line's start.
    var column: Int
    /// What was expected or found.
    var reason: String

    /// `line 3, column 5: expected a quoted key, found 'x'`.
    var description: String { "line \(line), column \(column): \(reason)" }

    /// The first syntax error in `bytes`, or nil when they are valid JSON.
    static func find(in bytes: [UInt8]) -> JSONSyntaxError? {
        guard let (offset, reason) = firstError(in: bytes) else { return nil }
        var line = 1
        var lineStart = 0
        for index in 0..<min(offset, bytes.count) where bytes[index] == UInt8(ascii: "\n") {
            line += 1
            lineStart = index + 1
        }
        // Count characters, not bytes: skip UTF-8 continuation bytes.
        let column = 1 + bytes[lineStart..<min(offset, bytes.count)].filter { $0 & 0xC0 != 0x80 }.count
        return JSONSyntaxError(line: line, column: column, reason: reason)
    }

    private enum Expect { case value, valueOrClose, key, keyOrClose, colon, commaOrClose, end }

    /// The byte offset and reason of the first error, or nil.
    private static func firstError(in bytes: [UInt8]) -> (Int, String)? {
        var index = 0
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { index = 3 }
        var stack: [UInt8] = []
        var expect = Expect.value
        func afterValue() -> Expect { stack.isEmpty ? .end : .commaOrClose }
        func found(_ byte: UInt8) -> String {
            byte >= 0x20 && byte < 0x7F ? "'\(Character(Unicode.Scalar(byte)))'" : "byte \(byte)"
        }
        while true {
            while index < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[index]) { index += 1 }
            guard index < bytes.count else {
                return expect == .end ? nil : (index, "unexpected end of the file")
            }
            let byte = bytes[index]
            switch expect {
            case .value, .valueOrClose:
                if expect == .valueOrClose, byte == UInt8(ascii: "]") {
                    stack.removeLast()
                    index += 1
                    expect = afterValue()
                    continue
                }
                switch byte {
                case UInt8(ascii: "{"):
                    stack.append(byte)
                    index += 1
                    expect = .keyOrClose
                case UInt8(ascii: "["):
                    stack.append(byte)
                    index += 1
                    expect = .valueOrClose
                case UInt8(ascii: "\""):
                    switch scanString(bytes, from: index) {
                    case .success(let end): index = end
                    case .failure(let error): return (error.offset, error.reason)
                    }
                    expect = afterValue()
                case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
                    switch scanNumber(bytes, from: index) {
                    case .success(let end): index = end
                    case .failure(let error): return (error.offset, error.reason)
                    }
                    expect = afterValue()
                case UInt8(ascii: "t"), UInt8(ascii: "f"), UInt8(ascii: "n"):
                    let word: [UInt8] = byte == UInt8(ascii: "t") ? Array("true".utf8) : byte == UInt8(ascii: "f") ? Array("false".utf8) : Array("null".utf8)
                    guard bytes[index...].starts(with: word) else {
                        return (index, "expected '\(String(decoding: word, as: UTF8.self))'")
                    }
                    index += word.count
                    expect = afterValue()
                default:
                    return (index, "expected a value, found \(found(byte))")
                }
            case .key, .keyOrClose:
                if expect == .keyOrClose, byte == UInt8(ascii: "}") {
                    stack.removeLast()
                    index += 1
                    expect = afterValue()
                    continue
                }
                guard byte == UInt8(ascii: "\"") else { return (index, "expected a quoted key, found \(found(byte))") }
                switch scanString(bytes, from: index) {
                case .success(let end): index = end
                case .failure(let error): return (error.offset, error.reason)
                }
                expect = .colon
            case .colon:
                guard byte == UInt8(ascii: ":") else { return (index, "expected ':' after the key, found \(found(byte))") }
                index += 1
                expect = .value
            case .commaOrClose:
                let inObject = stack.last == UInt8(ascii: "{")
                if byte == UInt8(ascii: ",") {
                    index += 1
                    expect = inObject ? .key : .value
                } else if byte == (inObject ? UInt8(ascii: "}") : UInt8(ascii: "]")) {
                    stack.removeLast()
                    index += 1
                    expect = afterValue()
                } else {
                    return (index, "expected ',' or '\(inObject ? "}" : "]")', found \(found(byte))")
                }
            case .end:
                return (index, "unexpected \(found(byte)) after the end of the JSON value")
            }
        }
    }

    private struct ScanFailure: Error {
        var offset: Int
        var reason: String
    }

    /// The offset after the string starting at the quote at `start`.
    private static func scanString(_ bytes: [UInt8], from start: Int) -> Result<Int, ScanFailure> {
        var index = start + 1
        while index < bytes.count {
            let byte = bytes[index]
            switch byte {
            case UInt8(ascii: "\""):
                return .success(index + 1)
            case UInt8(ascii: "\\"):
                guard index + 1 < bytes.count else { break }
                let escaped = bytes[index + 1]
                if escaped == UInt8(ascii: "u") {
                    let hex = bytes[min(index + 2, bytes.count)..<min(index + 6, bytes.count)]
                    guard hex.count == 4, hex.allSatisfy({ Character(Unicode.Scalar($0)).isHexDigit }) else {
                        return .failure(ScanFailure(offset: index, reason: "invalid \\u escape in a string"))
                    }
                    index += 6
                } else if Array(#""\/bfnrt"#.utf8).contains(escaped) {
                    index += 2
                } else {
                    return .failure(ScanFailure(offset: index, reason: "invalid escape in a string"))
                }
            case 0x00..<0x20:
                return .failure(ScanFailure(offset: index, reason: "control character in a string (escape it)"))
            default:
                index += 1
            }
        }
        return .failure(ScanFailure(offset: bytes.count, reason: "unterminated string"))
    }

    /// The offset after the number starting at `start`.
    private static func scanNumber(_ bytes: [UInt8], from start: Int) -> Result<Int, ScanFailure> {
        var index = start
        func digits() -> Int {
            let first = index
            while index < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[index]) { index += 1 }
            return index - first
        }
        if bytes[index] == UInt8(ascii: "-") { index += 1 }
        let integerStart = index
        guard digits() > 0 else { return .failure(ScanFailure(offset: index, reason: "expected a digit")) }
        if bytes[integerStart] == UInt8(ascii: "0"), index - integerStart > 1 {
            return .failure(ScanFailure(offset: integerStart, reason: "a number must not start with 0"))
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            index += 1
            guard digits() > 0 else { return .failure(ScanFailure(offset: index, reason: "expected a digit after '.'")) }
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
            index += 1
            if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") { index += 1 }
            guard digits() > 0 else { return .failure(ScanFailure(offset: index, reason: "expected a digit in the exponent")) }
        }
        return .success(index)
    }
}
