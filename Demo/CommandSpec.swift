import Foundation

/// What one command accepts: its options and arguments, used both to parse its command line
/// and to print its `--help`, so the two cannot disagree.
struct CommandSpec {
    /// One `--name` option.
    struct Option {
        /// The name without the dashes.
        var name: String
        /// The value's placeholder (`PATH`, `N`), or nil for a flag that takes no value.
        var value: String?
        /// What it does, one or more lines.
        var help: String

        /// An option taking a value.
        static func value(_ name: String, _ placeholder: String, _ help: String) -> Option {
            Option(name: name, value: placeholder, help: help)
        }

        /// A flag.
        static func flag(_ name: String, _ help: String) -> Option {
            Option(name: name, value: nil, help: help)
        }
    }

    /// The words after `demo`: empty for the journey, `generate` for a subcommand.
    var name: String
    /// The usage line after `demo` (and the name).
    var synopsis: String
    /// What the command does and its exit statuses.
    var summary: String
    /// The options, in the order help lists them.
    var options: [Option]
    /// The largest number of arguments that are not options (0 for most commands).
    var maxPositional = 0
    /// One line for the overview (`demo --help`).
    var brief = ""

    /// `demo generate` or `demo`.
    var invocation: String { name.isEmpty ? "demo" : "demo \(name)" }

    /// Names of the options that take a value.
    var valueOptions: Set<String> { Set(options.filter { $0.value != nil }.map(\.name)) }

    /// Names of the flags.
    var flagOptions: Set<String> { Set(options.filter { $0.value == nil }.map(\.name)) }

    /// The option of this command (or `help`) nearest to the mistyped `name`, without dashes,
    /// to suggest in the usage error; nil when none is near (see ``OptionSuggestion``).
    func suggestion(for name: String) -> String? {
        OptionSuggestion.nearest(to: name, among: options.map(\.name) + ["help"])
    }

    /// The command's `--help`: usage, what it does, and every option it parses.
    var help: String {
        var lines = ["USAGE", "  \(invocation) \(synopsis)", ""]
        lines += summary.split(separator: "\n", omittingEmptySubsequences: false).map { "  " + $0 }
        lines += ["", "OPTIONS"]
        let all = options + [.flag("help", "Show this help (also -h).")]
        let labels = all.map { "--\($0.name)" + ($0.value.map { " \($0)" } ?? "") }
        let width = (labels.map(\.count).max() ?? 0) + 2
        for (label, option) in zip(labels, all) {
            let helpLines = option.help.split(separator: "\n")
            lines.append("  " + label.padding(toLength: width, withPad: " ", startingAt: 0) + (helpLines.first.map(String.init) ?? ""))
            for more in helpLines.dropFirst() {
                lines.append("  " + String(repeating: " ", count: width) + more)
            }
        }
        return lines.joined(separator: "\n")
    }
}
