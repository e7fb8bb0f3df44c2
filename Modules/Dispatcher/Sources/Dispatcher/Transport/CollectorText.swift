/// Text that came from a collector (a response body, a `Location` host), made safe to store,
/// log and print: every control character is escaped and the text is cut short.
///
/// A collector is not trusted: an escape sequence in its answer must not rewrite or hide what a
/// terminal shows (`ESC[8m`, `ESC[2J`, a forged line after a newline). C0 and C1 controls and
/// DEL become `\xHH` (`\x1b` for ESC), newline, carriage return and tab become `\n`, `\r`, `\t`,
/// and the bidirectional overrides and isolates (U+202A–U+202E, U+2066–U+2069) become `\u{…}`.
enum CollectorText {
    /// The longest text kept, in characters, before the `…` that marks a cut.
    static let defaultLimit = 200

    /// `text` with control characters escaped, cut to at most `limit` characters once escaped
    /// (then `…`).
    static func sanitized(_ text: some StringProtocol, limit: Int = defaultLimit) -> String {
        var result = ""
        var kept = 0
        for scalar in text.unicodeScalars {
            let piece = escaped(scalar)
            let length = piece.unicodeScalars.count
            if kept + length > limit { return result + "…" }
            result += piece
            kept += length
        }
        return result
    }

    /// The first `limit` characters of `bytes` read as UTF-8 (invalid bytes become U+FFFD),
    /// escaped as ``sanitized(_:limit:)`` says; `…` when anything was left out (`truncated`
    /// says that more bytes existed than `bytes` holds).
    static func sanitized(bytes: some Collection<UInt8>, limit: Int = defaultLimit, truncated: Bool = false) -> String {
        // Four bytes a character at most: reading more could not add a kept character.
        let text = String(decoding: bytes.prefix(limit * 4 + 4), as: UTF8.self)
        let result = sanitized(text, limit: limit)
        let cut = truncated || bytes.count > limit * 4 + 4
        return cut && !result.hasSuffix("…") ? result + "…" : result
    }

    /// One scalar as it may be shown.
    private static func escaped(_ scalar: Unicode.Scalar) -> String {
        switch scalar.value {
        case 0x0A: return "\\n"
        case 0x0D: return "\\r"
        case 0x09: return "\\t"
        case 0x00...0x1F, 0x7F...0x9F: return "\\x" + hex(scalar.value, digits: 2)
        case 0x202A...0x202E, 0x2066...0x2069, 0x2028, 0x2029: return "\\u{" + hex(scalar.value, digits: 4) + "}"
        default: return String(scalar)
        }
    }

    private static func hex(_ value: UInt32, digits: Int) -> String {
        let text = String(value, radix: 16)
        return String(repeating: "0", count: max(0, digits - text.count)) + text
    }
}
