import Dispatcher
import Foundation
import Tracking

/// Renders monitor records as a table, JSON or CSV.
enum MonitorExport {
    /// A JSON array of records, pretty-printed with sorted keys.
    static func json(_ records: [MonitorRecord]) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .iso8601
        return String(decoding: try encoder.encode(records), as: UTF8.self)
    }

    /// CSV with a header row (RFC 4180 quoting); userData, context and flags as JSON text.
    /// Control characters are escaped (``TerminalText``), and a cell that a spreadsheet would
    /// run as a formula (starting with `=`, `+`, `-` or `@`) is prefixed with `'` and quoted, as
    /// OWASP recommends against CSV injection.
    static func csv(_ records: [MonitorRecord]) -> String {
        var lines = ["id,category,name,action,status,attempts,createdAt,timestamp,nextAttemptAt,lastError,flags,userData,context"]
        for record in records {
            let fields = [
                EventID.text(record.id), record.category, record.name, record.action, record.status.rawValue,
                String(record.attempts), record.createdAt, record.timestamp, record.nextAttemptAt ?? "",
                record.lastError ?? "", record.flags.joined(separator: ";"),
                UserDataValue.object(record.userData).description, UserDataValue.object(record.context).description,
            ]
            lines.append(fields.map(quote).joined(separator: ","))
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// A fixed-width table for a terminal; control characters in the cells are escaped.
    static func table(_ records: [MonitorRecord]) -> String {
        let header = ["ID (END)", "CATEGORY", "NAME", "ACTION", "STATUS", "TRIES", "CREATED", "FLAGS / ERROR"]
        var rows = [header]
        for record in records {
            let note = ((record.inJournal == true ? ["in journal"] : []) + record.flags + (record.lastError.map { [$0] } ?? []))
                .joined(separator: " ")
            rows.append([
                String(EventID.text(record.id).suffix(12)), record.category, record.name, record.action,
                record.status.rawValue, String(record.attempts), record.createdAt, String(TerminalText.escaping(note).prefix(60)),
            ].map(TerminalText.escaping))
        }
        var widths = [Int](repeating: 0, count: header.count)
        for row in rows { for (index, cell) in row.enumerated() { widths[index] = max(widths[index], cell.count) } }
        return rows.map { row in
            row.enumerated().map { index, cell in
                index == row.count - 1 ? cell : cell.padding(toLength: widths[index], withPad: " ", startingAt: 0)
            }.joined(separator: "  ")
        }.joined(separator: "\n") + "\n"
    }

    /// One CSV cell: control characters escaped, a formula neutralised, quoted when needed.
    private static func quote(_ field: String) -> String {
        var cell = TerminalText.escaping(field)
        let formula = cell.first.map { "=+-@".contains($0) } ?? false
        if formula { cell = "'" + cell }
        guard formula || cell.contains(where: { $0 == "," || $0 == "\"" }) else { return cell }
        return "\"" + cell.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }
}
