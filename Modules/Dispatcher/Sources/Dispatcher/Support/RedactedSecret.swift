/// A secret that never shows itself: its description, debug description and mirror are all
/// `<redacted>`, so printing or dumping the value that holds it cannot leak it.
struct RedactedSecret: Sendable, Equatable, CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    /// The secret itself, for the one place that sends it.
    let value: String

    var description: String { "<redacted>" }
    var debugDescription: String { "<redacted>" }
    var customMirror: Mirror { Mirror(self, children: [:]) }
}
