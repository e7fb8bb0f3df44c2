/// Text made safe to show a person: every control character written out as an escape, so that
/// a value from an event (a category, a name, a flag) or from elsewhere cannot move the cursor,
/// clear the screen, retitle the window, hide what follows or forge a line.
///
/// Escaped: the C0 controls (U+0000–U+001F) as `\n`, `\r`, `\t` or `\u{1B}`, DEL (U+007F) and
/// the C1 controls (U+0080–U+009F, which some terminals read as `ESC [` and the like) as
/// `\u{…}`. Everything else, other languages and emoji included, is kept as it is.
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
        for scalar in text.unicodeScalars {
            guard isControl(scalar) else {
                result.unicodeScalars.append(scalar)
                continue
            }
            switch scalar {
            case "\n": result += "\\n"
            case "\r": result += "\\r"
            case "\t": result += "\\t"
            default: result += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
            }
        }
        return result
    }

    /// Whether `scalar` is a C0 or C1 control character or DEL.
    public static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value < 0x20 || (scalar.value >= 0x7F && scalar.value <= 0x9F)
    }
}
