import DataQuality
import Foundation

/// `demo reconcile A.ndjson B.ndjson [--ignore FIELD,…]`: compares two event streams (ours and a
/// control SDK's export) by event id and reports what is missing, extra or different.
///
/// Exit 0 when the streams agree, 1 when they differ or a file cannot be read, 2 on a usage
/// mistake.
enum ReconcileCommand {
    /// The options and arguments `reconcile` parses and its help lists.
    static let spec = CommandSpec(
        name: "reconcile",
        synopsis: "A.ndjson B.ndjson [--ignore FIELD,…]",
        summary: """
        Compares two NDJSON event streams (ours and a control SDK's export) by event id and
        reports missing, extra and differing events. sentAt, receivedAt and stm are ignored.
        When no id matches although both have events, a hint says the files seem to come from
        different runs, with each side's run ids, session ids and timestamps.
        Exit 0 when the streams agree, 1 when they differ or a file is missing, a directory
        or unreadable, 2 on a usage mistake.
        """,
        options: [
            .value("ignore", "FIELD,…", "More fields to ignore, comma-separated."),
        ],
        maxPositional: 2,
        brief: "Compares two NDJSON event streams: missing, extra, differing.")

    static func run(_ arguments: [String]) throws -> Int32 {
        let options = try CommandLineOptions(arguments, spec: spec)
        guard options.positional.count == 2 else { throw UsageError("reconcile takes two NDJSON files: demo reconcile A B") }
        var ignored: Set<String> = ["sentAt", "receivedAt", "stm"]
        if let extra = options.value("ignore") {
            let fields = extra.split(separator: ",").map { String($0).trimmingCharacters(in: .whitespaces) }
            guard !fields.isEmpty, !fields.contains(where: \.isEmpty) else {
                throw UsageError("--ignore takes field names separated by commas, got '\(extra)'")
            }
            ignored.formUnion(fields)
        }
        let paths = options.positional
        for path in paths { try InputFileError.check(path) }
        let ours = try Data(contentsOf: URL(fileURLWithPath: paths[0]))
        let theirs = try Data(contentsOf: URL(fileURLWithPath: paths[1]))
        let report = Reconciler(ignoredFields: ignored).reconcile(ours: ours, theirs: theirs)
        // Nothing matched, yet both sides have events: say why that is likely, after the counts.
        var lines = report.description.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        if let hint = ReconcileHint.text(for: report, ours: ours, theirs: theirs) { lines.insert(hint, at: 1) }
        say(lines.joined(separator: "\n"))
        return report.isClean ? 0 : 1
    }
}
