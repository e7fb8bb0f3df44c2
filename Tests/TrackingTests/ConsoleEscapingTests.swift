import Foundation
import Testing
import Tracking
import TrackingTestKit

/// What an event carries cannot drive the terminal: category, name, action, userData and flags
/// with a screen clear, an OSC window title, a C1 CSI, a bell or newlines print escaped.
@Suite("Console: control characters escaped")
struct ConsoleEscapingTests {
    static let hostile = "x\u{1B}[2J\u{1B}]0;pwned\u{07}\ny\r\u{9B}31m\u{7F}z"

    /// Whether `text` holds a control character other than the line's own end.
    static func hasControl(_ text: String) -> Bool { text.unicodeScalars.contains(where: TerminalText.isControl) }

    @Test("A hand-built event with controls everywhere prints one line, nothing raw")
    func hostileEventPrintsOneEscapedLine() {
        let buffer = TextBuffer()
        let console = ConsoleReporter(stream: buffer)
        var event = TrackedEvent(category: Self.hostile, name: Self.hostile, action: Self.hostile, userData: ["k": .string("\u{9B}2J")])
        event.flag(EventFlag(code: "custom", detail: Self.hostile))
        _ = console.send(event)
        let lines = buffer.text.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.count == 2 && lines[1].isEmpty, "one line: \(lines)")
        #expect(!Self.hasControl(String(lines[0])), "\(lines[0].debugDescription)")
        #expect(lines[0].contains("x\\u{1B}[2J\\u{1B}]0;pwned\\u{7}\\ny\\r\\u{9B}31m\\u{7F}z"))
        let screen = TrackedEvent(category: "$screen", name: "a\nb\u{1B}[8m", action: "view")
        #expect(!Self.hasControl(console.format(screen)))
        // Coloured output: only the reporter's own escapes remain.
        let coloured = ConsoleReporter(stream: buffer, colors: true).format(event)
        #expect(!coloured.contains("\u{1B}[2J") && !coloured.contains("\u{1B}]0;") && !coloured.contains("\n"))
    }

    @Test("Plain text is kept as it is, other scripts and emoji included")
    func plainTextUnchanged() {
        for text in ["Cart", "Grüße · 日本語 🎉", "a\\nb", ""] { #expect(TerminalText.escaping(text) == text) }
        #expect(TerminalText.escaping("a\tb\u{0}") == "a\\tb\\u{0}")
    }

    @Test("bidirectional overrides and line separators are escaped; the limited form never splits an escape")
    func reorderingAndLimit() {
        #expect(TerminalText.escaping("a\u{202E}b\u{2066}c\u{2028}") == "a\\u{202E}b\\u{2066}c\\u{2028}")
        #expect(TerminalText.escaping("ab\u{1B}cd", limit: 4) == "ab…")
        #expect(TerminalText.escaping("abc", limit: 3) == "abc")
        #expect(TerminalText.escaping("abcd", limit: 3) == "abc…")
    }
}
