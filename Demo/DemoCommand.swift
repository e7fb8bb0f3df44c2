import Foundation

/// Dispatches `demo [subcommand] [options]` and turns errors into exit statuses.
///
/// Exit statuses: 0 success, 1 the work failed (a clear message on standard error),
/// 2 a usage mistake (one line on standard error).
enum DemoCommand {
    static let usage = """
    demo: a scripted analytics journey through Onboarding, Wishlist and Basket.

    USAGE
      demo [--store PATH] [--endpoint URL --format segment|snowplow|ndjson] [--write-key K]
           [--config FILE] [--quiet]
          Runs the journey with the console plugin on and the Dispatcher persisting to PATH
          (default .demo/demo.sqlite), delivering to an NDJSON outbox beside the store unless
          --endpoint is given, then prints a summary.
      demo generate --count N --store PATH [--threads N] [--timeout SECONDS] [--print-ids]
          Sends N events across the three features from N threads (default 1) through a
          Dispatcher on PATH with the default configuration, without delivering. --print-ids
          prints each id as soon as its send returned. The last line counts sent, persisted,
          refused (with the reasons), evicted and stranded, waiting up to --timeout (default 120)
          for the store; exit 1 if any was refused or stranded.
      demo monitor --store PATH [--format table|json|csv] [--status pending|held|delivered|rejected|all]
          [--sort created|category|name|status|attempts] [--limit N]
          Shows what the store holds.
      demo flush --store PATH --endpoint URL --format segment|snowplow|ndjson [--write-key K]
          [--timeout SECONDS]
          Delivers what is pending. Exit 0 when nothing is left pending, 1 when time ran out or
          the collector refused the endpoint or the credentials (HTTP 401, 403, 404).
      demo requeue --store PATH
          Returns the rejected events of the store to pending, attempts reset, and prints how
          many; the next flush delivers them.
      demo reconcile A.ndjson B.ndjson
          Compares two event streams: missing, extra and differing events.
      demo bench [--quick] [--json]
          Measures send cost, ingest, delivery, memory, store size and reopen time.

    OPTIONS
      --help, -h    Show this help.
    """

    /// Runs the command line and returns the exit status.
    static func run(_ arguments: [String]) async -> Int32 {
        if arguments.contains("--help") || arguments.contains("-h") {
            say(usage)
            return 0
        }
        do {
            let rest = Array(arguments.dropFirst())
            switch arguments.first {
            case "generate": return try await GenerateCommand.run(rest)
            case "monitor": return try MonitorCommand.run(rest)
            case "flush": return try await FlushCommand.run(rest)
            case "requeue": return try RequeueCommand.run(rest)
            case "reconcile": return try ReconcileCommand.run(rest)
            case "bench": return try await BenchCommand.run(rest)
            case let word? where !word.hasPrefix("-"):
                throw UsageError("unknown subcommand '\(word)' (see --help)")
            default: return try await JourneyCommand.run(arguments)
            }
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
