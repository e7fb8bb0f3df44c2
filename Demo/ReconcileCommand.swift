import DataQuality
import Foundation

/// `demo reconcile A.ndjson B.ndjson [--ignore FIELD,…]`: compares two event streams (ours and a
/// control SDK's export) by event id and reports what is missing, extra or different.
///
/// Exit 0 when the streams agree, 1 when they differ.
enum ReconcileCommand {
    static func run(_ arguments: [String]) throws -> Int32 {
        let options = try CommandLineOptions(arguments, valueOptions: ["ignore"], flagOptions: [])
        guard options.positional.count == 2 else { throw UsageError("reconcile takes two NDJSON files: demo reconcile A B") }
        let paths = options.positional
        for path in paths where !FileManager.default.fileExists(atPath: path) {
            throw MonitorError.noStore(path)
        }
        var ignored: Set<String> = ["sentAt", "receivedAt", "stm"]
        if let extra = options.value("ignore") {
            ignored.formUnion(extra.split(separator: ",").map { String($0).trimmingCharacters(in: .whitespaces) })
        }
        let report = try Reconciler(ignoredFields: ignored)
            .reconcile(ours: URL(fileURLWithPath: paths[0]), theirs: URL(fileURLWithPath: paths[1]))
        say(report.description)
        return report.isClean ? 0 : 1
    }
}
