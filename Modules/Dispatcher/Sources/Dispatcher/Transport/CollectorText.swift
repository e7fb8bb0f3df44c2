import Tracking

/// Text that came from a collector (a response body, a `Location` host), made safe to store,
/// log and print: escaped as ``TerminalText`` escapes (`\u{1B}` for ESC, `\n` for a newline),
/// and cut short. A collector is not trusted: an escape sequence in its answer must not rewrite
/// or hide what a terminal shows (`ESC[8m`, `ESC[2J`, a forged line after a newline).
enum CollectorText {
    /// The longest text kept, in characters, before the `…` that marks a cut.
    static let defaultLimit = 200

    /// `text` with control characters escaped, cut to at most `limit` characters once escaped
    /// (then `…`).
    static func sanitized(_ text: some StringProtocol, limit: Int = defaultLimit) -> String {
        TerminalText.escaping(text, limit: limit)
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
}
