/// A strict RFC 8259 check of JSON text, run before a configuration or a data contract is
/// decoded: Foundation's decoders accept trailing commas, comments, duplicate keys and more.
///
/// One pass over the UTF-8 bytes, without recursion (the open containers are a heap stack,
/// at most ``maximumDepth`` deep). It refuses, with the line and column of the first problem:
/// anything outside the grammar (trailing commas, comments, single quotes, unquoted keys,
/// leading zeros, `+1`, `.5`, `1.`, NaN, Infinity, hex numbers, unescaped control characters,
/// invalid escapes, lone surrogates, trailing content), invalid UTF-8, empty input, a UTF-8
/// byte order mark (RFC 8259 lets a parser ignore it; a configuration is refused, so one file
/// has one spelling), and a key repeated in one object (compared as Swift strings, as the
/// decoder would merge them).
struct StrictJSONScanner {
    /// The deepest nesting of objects and arrays accepted.
    static let maximumDepth = 512

    /// A problem at a byte offset; ``firstError(in:)`` turns it into a line and column.
    struct Failure: Error {
        var offset: Int
        var reason: String
    }

    /// An open object or array; an object remembers its keys and where each first appeared.
    private struct Container {
        var isObject: Bool
        var keys: [String: Int] = [:]
    }

    /// What the next token may be.
    private enum Expect { case value, valueOrClose, key, keyOrClose, colon, commaOrClose, end }

    let bytes: [UInt8]
    var index = 0
    private var open: [Container] = []
    private var lastComma = 0

    /// The first deviation from RFC 8259 in `bytes`, or nil when they are one valid JSON text.
    static func firstError(in bytes: [UInt8]) -> JSONSyntaxError? {
        var scanner = StrictJSONScanner(bytes: bytes)
        do {
            try scanner.scanText()
            return nil
        } catch let failure as Failure {
            return JSONSyntaxError(at: failure.offset, reason: failure.reason, in: bytes)
        } catch {
            return JSONSyntaxError(at: 0, reason: "\(error)", in: bytes)
        }
    }

    private init(bytes: [UInt8]) { self.bytes = bytes }

    private mutating func scanText() throws {
        guard !bytes.isEmpty else { throw Failure(offset: 0, reason: "empty input: expected a JSON value") }
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) {
            throw Failure(offset: 0, reason: "a byte order mark (U+FEFF) is not allowed: save the file as UTF-8 without BOM")
        }
        var expect = Expect.value
        while true {
            try skipWhitespace()
            guard index < bytes.count else {
                if expect == .end { return }
                throw Failure(offset: index, reason: endReason(expect))
            }
            switch expect {
            case .value, .valueOrClose:
                // A value is expected inside an array only after '[' or a comma.
                if bytes[index] == UInt8(ascii: "]"), open.last?.isObject == false {
                    guard expect == .valueOrClose else { throw trailingComma() }
                    expect = close()
                } else {
                    expect = try scanValue()
                }
            case .key, .keyOrClose:
                if bytes[index] == UInt8(ascii: "}") {
                    guard expect == .keyOrClose else { throw trailingComma() }
                    expect = close()
                } else {
                    try scanKey()
                    expect = .colon
                }
            case .colon:
                guard bytes[index] == UInt8(ascii: ":") else {
                    throw Failure(offset: index, reason: "expected ':' after the key, found \(JSONSyntaxError.found(bytes[index]))")
                }
                index += 1
                expect = .value
            case .commaOrClose:
                expect = try scanCommaOrClose()
            case .end:
                throw Failure(offset: index, reason: "unexpected \(JSONSyntaxError.found(bytes[index])) after the end of the JSON value")
            }
        }
    }

    /// What follows a complete value: the end, or a comma or close of the open container.
    private var afterValue: Expect { open.isEmpty ? .end : .commaOrClose }

    /// Closes the innermost container at `index`.
    private mutating func close() -> Expect {
        open.removeLast()
        index += 1
        return afterValue
    }

    private func trailingComma() -> Failure {
        Failure(offset: lastComma, reason: "trailing comma before '\(Character(Unicode.Scalar(bytes[index])))'")
    }

    private func endReason(_ expect: Expect) -> String {
        if open.isEmpty, expect == .value { return "expected a JSON value, found only whitespace" }
        let closer = open.last?.isObject == true ? "'}'" : "']'"
        return "unexpected end of input (\(open.count) unclosed, expected \(closer) or more)"
    }

    private mutating func scanCommaOrClose() throws -> Expect {
        let isObject = open.last?.isObject == true
        let byte = bytes[index]
        if byte == UInt8(ascii: ",") {
            lastComma = index
            index += 1
            return isObject ? .key : .value
        }
        if byte == UInt8(ascii: isObject ? "}" : "]") { return close() }
        throw Failure(offset: index, reason: "expected ',' or '\(isObject ? "}" : "]")', found \(JSONSyntaxError.found(byte))")
    }

    /// Scans a value starting at `index`: a scalar whole, or the opening of a container.
    private mutating func scanValue() throws -> Expect {
        let byte = bytes[index]
        switch byte {
        case UInt8(ascii: "{"), UInt8(ascii: "["):
            guard open.count < Self.maximumDepth else {
                throw Failure(offset: index, reason: "nesting deeper than \(Self.maximumDepth) levels of objects and arrays")
            }
            open.append(Container(isObject: byte == UInt8(ascii: "{")))
            index += 1
            return byte == UInt8(ascii: "{") ? .keyOrClose : .valueOrClose
        case UInt8(ascii: "\""):
            _ = try scanString(keepingValue: false)
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            try scanNumber()
        case UInt8(ascii: "t"), UInt8(ascii: "f"), UInt8(ascii: "n"):
            let word = byte == UInt8(ascii: "t") ? "true" : byte == UInt8(ascii: "f") ? "false" : "null"
            guard bytes[index...].starts(with: word.utf8) else { throw Failure(offset: index, reason: "invalid literal: expected '\(word)'") }
            index += word.utf8.count
        default:
            throw Failure(offset: index, reason: Self.notAValue(byte))
        }
        return afterValue
    }

    private static func notAValue(_ byte: UInt8) -> String {
        switch byte {
        case UInt8(ascii: "'"): "strings must be in double quotes, found '''"
        case UInt8(ascii: "+"): "a number must not start with '+'"
        case UInt8(ascii: "."): "a number must start with a digit, found '.'"
        case UInt8(ascii: "N"), UInt8(ascii: "I"): "NaN and Infinity are not JSON numbers"
        default: "expected a value, found \(JSONSyntaxError.found(byte))"
        }
    }

    /// Scans a key and refuses one the innermost object already has.
    private mutating func scanKey() throws {
        let start = index
        switch bytes[index] {
        case UInt8(ascii: "\""):
            break
        case UInt8(ascii: "'"):
            throw Failure(offset: index, reason: "keys must be in double quotes, found '''")
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "_"), UInt8(ascii: "$"):
            throw Failure(offset: index, reason: "keys must be in double quotes, found unquoted \(JSONSyntaxError.found(bytes[index]))")
        default:
            throw Failure(offset: index, reason: "expected a quoted key, found \(JSONSyntaxError.found(bytes[index]))")
        }
        let key = try scanString(keepingValue: true) ?? ""
        let depth = open.count - 1
        if let first = open[depth].keys[key] {
            let (line, column) = JSONSyntaxError.position(of: first, in: bytes)
            let shown = key.count > 60 ? String(key.prefix(60)) + "…" : key
            throw Failure(offset: start, reason: "duplicate key \(shown.debugDescription) (first at line \(line), column \(column))")
        }
        open[depth].keys[key] = start
    }

    /// Skips JSON whitespace (space, tab, line feed, carriage return); refuses a comment.
    private mutating func skipWhitespace() throws {
        while index < bytes.count {
            switch bytes[index] {
            case 0x20, 0x09, 0x0A, 0x0D:
                index += 1
            case UInt8(ascii: "/") where index + 1 < bytes.count && (bytes[index + 1] == UInt8(ascii: "/") || bytes[index + 1] == UInt8(ascii: "*")):
                let kind = bytes[index + 1] == UInt8(ascii: "/") ? "//" : "/* */"
                throw Failure(offset: index, reason: "comments (\(kind)) are not allowed in JSON")
            default:
                return
            }
        }
    }
}
