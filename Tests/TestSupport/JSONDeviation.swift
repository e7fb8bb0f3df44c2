/// A JSON text that breaks RFC 8259 in one way, and where: the table the strict-JSON suites of
/// the configuration, the data contract and the scanner all run, so each path refuses the same.
public struct JSONDeviation: Sendable, CustomStringConvertible {
    /// What is wrong, for the test's name.
    public let name: String
    /// The text, as bytes (some are not valid UTF-8 on purpose).
    public let bytes: [UInt8]
    /// The 1-based line and column the error must name.
    public let line: Int
    public let column: Int
    /// Words the error's reason must contain.
    public let reason: String

    init(_ name: String, _ text: String, _ line: Int, _ column: Int, _ reason: String) {
        self.init(name, Array(text.utf8), line, column, reason)
    }

    init(_ name: String, _ bytes: [UInt8], _ line: Int, _ column: Int, _ reason: String) {
        self.name = name
        self.bytes = bytes
        self.line = line
        self.column = column
        self.reason = reason
    }

    /// The name, shown for each case of a parameterized test.
    public var description: String { name }

    /// `line L, column C: ` followed by the reason, as the error's text must show it.
    public var position: String { "line \(line), column \(column): " }

    /// Every deviation, one or more per kind.
    public static let all: [JSONDeviation] = [
        JSONDeviation("trailing comma in an object", "{\n  \"store\": \"x.sqlite\",\n  \"appId\": \"a\",\n}", 3, 15, "trailing comma before '}'"),
        JSONDeviation("trailing comma in an array", #"{"consentCategories": ["a", "b",]}"#, 1, 32, "trailing comma before ']'"),
        JSONDeviation("// comment", "{\n  // the store\n  \"store\": \"x\"\n}", 2, 3, "comments (//) are not allowed"),
        JSONDeviation("/* */ comment", #"{"store": /* here */ "x"}"#, 1, 11, "comments (/* */) are not allowed"),
        JSONDeviation("duplicate key", "{\n  \"appId\": \"a\",\n  \"appId\": \"b\"\n}", 3, 3, #"duplicate key "appId" (first at line 2, column 3)"#),
        JSONDeviation("duplicate nested key", #"{"batch": {"deliverySize": 1, "deliverySize": 2}}"#, 1, 31, #"duplicate key "deliverySize""#),
        JSONDeviation("duplicate key deep in an array", #"[{"a": [{"k": 1, "k": 2}]}]"#, 1, 18, #"duplicate key "k""#),
        JSONDeviation("duplicate key spelt with an escape", #"{"ab": 1, "a\u0062": 2}"#, 1, 11, #"duplicate key "ab""#),
        JSONDeviation("single-quoted string", #"{"store": 'x'}"#, 1, 11, "strings must be in double quotes"),
        JSONDeviation("single-quoted key", #"{'store': "x"}"#, 1, 2, "keys must be in double quotes"),
        JSONDeviation("unquoted key", #"{store: "x"}"#, 1, 2, "keys must be in double quotes, found unquoted 's'"),
        JSONDeviation("leading zero", #"{"n": 012}"#, 1, 7, "leading zero"),
        JSONDeviation("leading plus", #"{"n": +1}"#, 1, 7, "must not start with '+'"),
        JSONDeviation("leading dot", #"{"n": .5}"#, 1, 7, "must start with a digit, found '.'"),
        JSONDeviation("trailing dot", #"{"n": 1.}"#, 1, 8, "expected a digit after the decimal point"),
        JSONDeviation("missing exponent digits", #"{"n": 1e}"#, 1, 9, "expected a digit in the exponent"),
        JSONDeviation("NaN", #"{"n": NaN}"#, 1, 7, "NaN and Infinity are not JSON numbers"),
        JSONDeviation("Infinity", #"{"n": Infinity}"#, 1, 7, "NaN and Infinity are not JSON numbers"),
        JSONDeviation("-Infinity", #"{"n": -Infinity}"#, 1, 7, "NaN and Infinity are not JSON numbers"),
        JSONDeviation("hex number", #"{"n": 0x1F}"#, 1, 7, "hexadecimal numbers are not allowed"),
        JSONDeviation("unescaped tab in a string", "{\"s\": \"a\tb\"}", 1, 9, "unescaped control character U+0009"),
        JSONDeviation("unescaped newline in a string", "{\"s\": \"a\nb\"}", 1, 9, "unescaped control character U+000A"),
        JSONDeviation("invalid escape \\x", #"{"s": "a\x41"}"#, 1, 9, #"invalid escape '\x'"#),
        JSONDeviation("short \\u escape", #"{"s": "\u12G4"}"#, 1, 8, "expected four hex digits"),
        JSONDeviation("lone high surrogate", #"{"s": "\uD83D"}"#, 1, 8, "lone high surrogate \\uD83D"),
        JSONDeviation("high surrogate then no low one", #"{"s": "\uD83D\u0041"}"#, 1, 8, "lone high surrogate"),
        JSONDeviation("lone low surrogate", #"{"s": "x\uDE00"}"#, 1, 9, "lone low surrogate \\uDE00"),
        JSONDeviation("invalid UTF-8 byte", Array(#"{"s": "é"#.utf8) + [0xFF] + Array(#""}"#.utf8), 1, 9, "invalid UTF-8: byte 0xFF"),
        JSONDeviation("overlong UTF-8", Array(#"{"s": ""#.utf8) + [0xC0, 0xAF] + Array(#""}"#.utf8), 1, 8, "invalid UTF-8: byte 0xC0"),
        JSONDeviation("UTF-8 encoded surrogate", Array(#"{"s": ""#.utf8) + [0xED, 0xA0, 0x80] + Array(#""}"#.utf8), 1, 8, "invalid UTF-8: malformed sequence"),
        JSONDeviation("truncated UTF-8", Array(#"{"s": ""#.utf8) + [0xE2, 0x82] + Array(#""}"#.utf8), 1, 8, "invalid UTF-8: malformed sequence"),
        JSONDeviation("trailing content", #"{"store": "x"} {}"#, 1, 16, "unexpected '{' after the end of the JSON value"),
        JSONDeviation("trailing content on a later line", "{}\nx", 2, 1, "unexpected 'x' after the end"),
        JSONDeviation("empty input", "", 1, 1, "empty input"),
        JSONDeviation("only whitespace", "  \n ", 2, 2, "found only whitespace"),
        JSONDeviation("UTF-8 byte order mark", [0xEF, 0xBB, 0xBF] + Array("{}".utf8), 1, 1, "byte order mark (U+FEFF) is not allowed"),
        JSONDeviation("nesting deeper than 512", String(repeating: "[", count: 513) + String(repeating: "]", count: 513), 1, 513, "nesting deeper than 512"),
        JSONDeviation("unterminated string", #"{"store": "x}"#, 1, 11, "unterminated string"),
        JSONDeviation("unclosed object", #"{"a": [1, 2"#, 1, 12, "unexpected end of input"),
        JSONDeviation("misspelt literal", #"{"b": tru}"#, 1, 7, "expected 'true'"),
        JSONDeviation("capitalised literal", #"{"b": True}"#, 1, 7, "expected a value, found 'T'"),
        JSONDeviation("missing value before ']'", #"{"a": ]}"#, 1, 7, "expected a value, found ']'"),
        JSONDeviation("missing value before '}'", #"{"a": }"#, 1, 7, "expected a value, found '}'"),
        JSONDeviation("two commas in an array", "[1,,2]", 1, 4, "expected a value, found ','"),
        JSONDeviation("comma first in an object", "{,}", 1, 2, "expected a quoted key, found ','"),
        JSONDeviation("mismatched close", "[1}", 1, 3, "expected ',' or ']', found '}'"),
        JSONDeviation("form feed as whitespace", "{\u{0C}}", 1, 2, "expected a quoted key, found byte 0x0C"),
    ]
}
