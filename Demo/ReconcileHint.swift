import DataQuality
import Foundation
import Tracking

/// What `demo reconcile` adds when no event matched although both streams have events: the two
/// files most likely come from different runs (each event id is new in every run), with what
/// their lines say about their runs: the run ids (`context.instanceId`, new in each process), the
/// session ids and the span of the events' timestamps, for each side.
enum ReconcileHint {
    /// What one side's lines say about the run that made them.
    struct Side {
        /// Distinct run ids, in the order first seen.
        var runs: [String] = []
        /// Distinct session ids, in the order first seen.
        var sessions: [String] = []
        /// The earliest `timestamp`, as written, and the instant it names.
        var first: (text: String, date: Date)?
        /// The latest `timestamp`, as written, and the instant it names.
        var last: (text: String, date: Date)?

        /// Reads the NDJSON lines of `data`; lines that are not JSON objects are skipped (the
        /// report lists them already).
        init(_ data: Data) {
            let precise = ISO8601DateFormatter(), plain = ISO8601DateFormatter()
            precise.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
            var seenRuns: Set<String> = [], seenSessions: Set<String> = []
            for line in data.split(separator: UInt8(ascii: "\n")) {
                guard let object = try? JSONSerialization.jsonObject(with: Data(line)) as? [String: Any] else { continue }
                let context = object["context"] as? [String: Any]
                if let run = context?["instanceId"] as? String, seenRuns.insert(run).inserted { runs.append(run) }
                let session = (context?["session"] as? [String: Any])?["id"] as? String ?? context?["sessionId"] as? String
                if let session, seenSessions.insert(session).inserted { sessions.append(session) }
                if let time = object["timestamp"] as? String, let date = precise.date(from: time) ?? plain.date(from: time) {
                    if first.map({ date < $0.date }) ?? true { first = (time, date) }
                    if last.map({ date > $0.date }) ?? true { last = (time, date) }
                }
            }
        }
    }

    /// The hint, or nil when it does not apply: something matched, or a side has no event.
    static func text(for report: ReconciliationReport, ours: Data, theirs: Data) -> String? {
        guard report.matched == 0, !report.extra.isEmpty, !report.missing.isEmpty else { return nil }
        let (mine, other) = (Side(ours), Side(theirs))
        var facts: [String] = []
        if !mine.runs.isEmpty || !other.runs.isEmpty {
            let shared = Set(mine.runs).intersection(other.runs).isEmpty ? "none in common" : "some in common"
            facts.append("run ids (context.instanceId) \(shared): ours \(list(mine.runs)), theirs \(list(other.runs))")
        }
        if !mine.sessions.isEmpty || !other.sessions.isEmpty {
            let shared = Set(mine.sessions).intersection(other.sessions).isEmpty ? "none in common" : "some in common"
            facts.append("session ids \(shared): ours \(list(mine.sessions)), theirs \(list(other.sessions))")
        }
        if mine.first != nil || other.first != nil {
            facts.append("timestamps: ours \(span(mine)), theirs \(span(other))")
        }
        let intro = "Hint: no event id in common, so the two files seem to come from different runs"
        guard !facts.isEmpty else { return intro + " (their lines carry no run id, session id or timestamp)." }
        return intro + ":\n" + facts.map { "  " + TerminalText.escaping($0) }.joined(separator: "\n")
    }

    /// `a, b and 3 more`, or `none` for an empty list.
    private static func list(_ values: [String]) -> String {
        guard !values.isEmpty else { return "none" }
        let shown = values.prefix(2).joined(separator: ", ")
        return values.count > 2 ? "\(shown) and \(values.count - 2) more" : shown
    }

    /// `FIRST to LAST`, or `none`.
    private static func span(_ side: Side) -> String {
        guard let first = side.first, let last = side.last else { return "none" }
        return first.date == last.date ? first.text : "\(first.text) to \(last.text)"
    }
}
