import Foundation

/// A plugin that prints one readable line per event, for development.
///
/// `[Cart] checkout · pay  {"quantity":2}`: category, name, action and userData, plus any flags;
/// screen and identify calls read `[screen] Basket  {"step":2}` and `[identify] {"plan":"pro"}`.
/// Colour is used only when writing to a terminal. Control characters in what an event carries
/// (category, name, action, userData, flags) are printed escaped (``TerminalText``), so an event
/// cannot drive the terminal or forge a line.
public struct ConsoleReporter: EventReporterPlugin {
    private let output: ConsoleOutput
    private let colors: Bool

    /// Creates a console plugin that writes to `stream`.
    /// - Parameters:
    ///   - stream: where lines go; a class-based stream lets a test read them back.
    ///   - colors: whether to use ANSI colours. Defaults to `false` for an injected stream.
    public init(stream: some TextOutputStream & Sendable, colors: Bool = false) {
        self.output = ConsoleOutput(stream: stream)
        self.colors = colors
    }

    /// Creates a console plugin on standard output, coloured when standard output is a terminal.
    public init() {
        self.init(stream: StandardOutputStream(), colors: isatty(STDOUT_FILENO) == 1)
    }

    /// A console plugin on standard output, coloured when standard output is a terminal; the
    /// same as ``init()``.
    public static func standardOutput() -> ConsoleReporter { ConsoleReporter() }

    /// Writes the event's line.
    public func send(_ event: TrackedEvent) -> Receipt? {
        let line = format(event)
        output.write(line + "\n")
        return Receipt(plugin: "console", eventID: event.id, form: line)
    }

    /// The line printed for an event: `[Category] name · action  {userData}` for a feature's
    /// event, `[screen] Name  {properties}` for a screen call (an empty name shows as `""`),
    /// `[identify] {traits}` for an identify call; then `  ⚑ flags`, if any.
    public func format(_ event: TrackedEvent) -> String {
        let safe = TerminalText.escaping
        let flags = event.flags.isEmpty ? "" : "  ⚑ " + safe(event.flags.map(\.description).joined(separator: ", "))
        let head: (tag: String, title: String?)
        let data: String
        switch event.kind {
        case .track:
            data = event.userData.isEmpty ? "" : "  " + safe(JSONText.encode(.object(event.userData)))
            let (category, name, action) = (safe(event.category), safe(event.name), safe(event.action))
            guard colors else { return "[\(category)] \(name) · \(action)\(data)\(flags)" }
            return "\u{1B}[1;36m[\(category)]\u{1B}[0m \u{1B}[1m\(name)\u{1B}[0m · \(action)"
                + "\u{1B}[2m\(data)\u{1B}[0m" + (flags.isEmpty ? "" : "\u{1B}[33m\(flags)\u{1B}[0m")
        case .screen:
            head = ("[screen]", event.name.isEmpty ? "\"\"" : safe(event.name))
            data = event.userData.isEmpty ? "" : "  " + safe(JSONText.encode(.object(event.userData)))
        case .identify:
            head = ("[identify]", nil)
            data = event.userData.isEmpty ? "" : " " + safe(JSONText.encode(.object(event.userData)))
        }
        guard colors else { return head.tag + (head.title.map { " " + $0 } ?? "") + data + flags }
        return "\u{1B}[1;36m\(head.tag)\u{1B}[0m" + (head.title.map { " \u{1B}[1m\($0)\u{1B}[0m" } ?? "")
            + "\u{1B}[2m\(data)\u{1B}[0m" + (flags.isEmpty ? "" : "\u{1B}[33m\(flags)\u{1B}[0m")
    }
}
