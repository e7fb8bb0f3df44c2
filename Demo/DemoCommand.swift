import Foundation

/// Dispatches `demo [subcommand] [options]` and turns errors into exit statuses.
///
/// Exit statuses: 0 success, 1 the work failed (a clear message on standard error),
/// 2 a usage mistake (one line on standard error).
enum DemoCommand {
    /// The subcommands, in the order the overview lists them.
    static let subcommands: [CommandSpec] = [
        GenerateCommand.spec, MonitorCommand.spec, FlushCommand.spec, RequeueCommand.spec,
        PrivacyCommand.spec, ReconcileCommand.spec, BenchCommand.spec, LiveCommand.spec, InspectCommand.spec,
    ]

    /// `demo --help`: the journey's usage and options, then each subcommand in one line.
    static var usage: String {
        var lines = ["demo: a scripted analytics journey through Onboarding, Wishlist and Basket.", "", JourneyCommand.spec.help, "", "SUBCOMMANDS"]
        for spec in subcommands {
            lines.append("  \(spec.name.padding(toLength: 11, withPad: " ", startingAt: 0))\(spec.brief)")
        }
        lines += ["", "Run demo SUBCOMMAND --help for a subcommand's options.",
                  "Exit statuses: 0 success, 1 the work failed (a message on standard error), 2 a usage mistake (one line)."]
        return lines.joined(separator: "\n")
    }

    /// Runs the command line and returns the exit status.
    static func run(_ arguments: [String]) async -> Int32 {
        let rest = Array(arguments.dropFirst())
        let wantsHelp = { (words: [String]) in words.contains("--help") || words.contains("-h") }
        if let first = arguments.first, let spec = subcommands.first(where: { $0.name == first }), wantsHelp(rest) {
            say(spec.help)
            return 0
        }
        if wantsHelp(arguments) {
            say(usage)
            return 0
        }
        return await exitStatus {
            switch arguments.first {
            case "generate": return try await GenerateCommand.run(rest)
            case "monitor": return try MonitorCommand.run(rest)
            case "flush": return try await FlushCommand.run(rest)
            case "requeue": return try await RequeueCommand.run(rest)
            case "privacy": return try await PrivacyCommand.run(rest)
            case "reconcile": return try ReconcileCommand.run(rest)
            case "bench": return try await BenchCommand.run(rest)
            case "live": return try await LiveCommand.run(rest)
            case "inspect": return try await InspectCommand.run(rest)
            case let word? where !word.hasPrefix("-"):
                throw UsageError("unknown subcommand '\(word)' (see demo --help)")
            default: return try await JourneyCommand.run(arguments)
            }
        }
    }

    /// Runs `body` on the caller's actor and turns what it throws into an exit status, with one
    /// line on standard error: 2 for a usage mistake, 1 for anything else.
    static func exitStatus(isolation: isolated (any Actor)? = #isolation, _ body: () async throws -> Int32) async -> Int32 {
        do {
            return try await body()
        } catch let error as UsageError {
            printError("demo: \(error)")
            return 2
        } catch {
            printError("demo: \(error)")
            return 1
        }
    }
}

/// Writes one line to standard error.
func printError(_ message: String) {
    FileHandle.standardError.write(Data((message + "\n").utf8))
}

/// Writes to standard output unbuffered, so lines interleave in order with the console plugin's.
func say(_ text: String = "", terminator: String = "\n") {
    FileHandle.standardOutput.write(Data((text + terminator).utf8))
}
