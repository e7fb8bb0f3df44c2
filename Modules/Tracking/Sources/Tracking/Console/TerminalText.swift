/// Text made safe to show a person: every control character written out as an escape, so that
/// a value from an event (a category, a name, a flag) or from a collector cannot move the cursor,
/// clear the screen, retitle the window, hide what follows, forge a line or reorder it.
///
/// Escaped: the C0 controls (U+0000–U+001F) as `\n`, `\r`, `\t` or `\u{1B}`, DEL (U+007F), the
/// C1 controls (U+0080–U+009F, which some terminals read as `ESC [` and the like), the line and
/// paragraph separators (U+2028, U+2029) and the bidirectional overrides and isolates
/// (U+202A–U+202E, U+2066–U+2069) as `\u{…}`. Everything else, other languages and emoji
/// included, is kept as it is.
///
/// ```swift
/// print(TerminalText.escaping("a\u{1B}[2Jb"))   // a\u{1B}[2Jb, shown as those characters
/// ```
public enum TerminalText {
    /// `text` with every control character escaped; `text` itself when it has none.
    public static func escaping(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: isControl) else { return text }
        var result = ""
        result.reserveCapacity(text.utf8.count + 8)
        for scalar in text.unicodeScalars { append(scalar, to: &result) }
        return result
    }

    /// `text` escaped as ``escaping(_:)`` does, cut to at most `limit` characters (an escape is
    /// never split), then `…` when anything was left out: for text from elsewhere, which may be
    /// long as well as hostile.
    public static func escaping(_ text: some StringProtocol, limit: Int) -> String {
        var result = ""
        var kept = 0
        for scalar in text.unicodeScalars {
            var piece = ""
            append(scalar, to: &piece)
            let length = piece.unicodeScalars.count
            if kept + length > max(0, limit) { return result + "…" }
            result += piece
            kept += length
        }
        return result
    }

    /// Whether `scalar` is escaped: a C0 or C1 control character, DEL, a line or paragraph
    /// separator, or a bidirectional override or isolate.
    public static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x00..<0x20, 0x7F...0x9F, 0x2028, 0x2029, 0x202A...0x202E, 0x2066...0x2069: true
        default: false
        }
    }

    /// Appends `scalar`, escaped when it is a control character.
    private static func append(_ scalar: Unicode.Scalar, to result: inout String) {
        guard isControl(scalar) else {
            result.unicodeScalars.append(scalar)
            return
        }
        switch scalar {
        case "\n": result += "\\n"
        case "\r": result += "\\r"
        case "\t": result += "\\t"
        default: result += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
        }
    }
}
