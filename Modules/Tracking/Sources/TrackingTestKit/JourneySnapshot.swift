import Foundation
import Tracking

/// Journey snapshots: a flow's events written to a file once, compared on every later run.
///
/// The snapshot holds one line per event (category, name, action, userData, flags) with ids
/// and timestamps left out, so it is stable. The file is (re)written when it does not exist or
/// when the environment variable `RECORD_SNAPSHOTS` is `1`; otherwise a difference throws
/// ``JourneySnapshotMismatch`` with a line-by-line diff.
public enum JourneySnapshot {
    /// The stable text of a journey: one line per event.
    public static func text(of events: [TrackedEvent]) -> String {
        events.map { event in
            var stable = event
            stable.context = [:]
            return stable.description
        }.joined(separator: "\n") + "\n"
    }

    /// Compares `events` with the snapshot at `file`, recording it when asked or missing.
    /// - Parameters:
    ///   - events: the journey's events.
    ///   - file: the snapshot file, usually beside the test under `__Snapshots__/`.
    ///   - environment: where `RECORD_SNAPSHOTS` is read; injectable for tests.
    /// - Returns: `true` when the snapshot was (re)recorded rather than compared.
    @discardableResult
    public static func assertMatches(
        _ events: [TrackedEvent],
        file: URL,
        environment: [String: String] = ProcessInfo.processInfo.environment
    ) throws -> Bool {
        let actual = text(of: events)
        let record = environment["RECORD_SNAPSHOTS"] == "1"
        if record || !FileManager.default.fileExists(atPath: file.path) {
            try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(actual.utf8).write(to: file, options: .atomic)
            return true
        }
        let expected = try String(contentsOf: file, encoding: .utf8)
        guard expected != actual else { return false }
        throw JourneySnapshotMismatch(file: file, diff: lineDiff(expected: expected, actual: actual))
    }

    /// A by-line diff: `-` expected lines missing, `+` lines that came instead.
    public static func lineDiff(expected: String, actual: String) -> String {
        let want = expected.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let have = actual.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        var lines: [String] = []
        for index in 0..<max(want.count, have.count) {
            let left = index < want.count ? want[index] : nil
            let right = index < have.count ? have[index] : nil
            if left == right { continue }
            if let left { lines.append("- #\(index): \(left)") }
            if let right { lines.append("+ #\(index): \(right)") }
        }
        return lines.joined(separator: "\n")
    }
}
