import Foundation

/// A compiled regular expression.
final class CompiledPattern: Sendable {
    private let expression: NSRegularExpression

    /// Compiles `pattern`, or returns `nil` when it is not a valid expression.
    init?(_ pattern: String) {
        guard let expression = try? NSRegularExpression(pattern: "\\A(?:" + pattern + ")\\z") else { return nil }
        self.expression = expression
    }

    /// Whether the whole of `text` matches.
    func matchesWhole(_ text: String) -> Bool {
        let range = NSRange(text.startIndex..., in: text)
        return expression.firstMatch(in: text, options: [], range: range) != nil
    }
}
