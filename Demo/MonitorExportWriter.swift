import Dispatcher
import Foundation

/// Writes a monitor export (`json` or `csv`) to standard output page by page, so an export of
/// any size is complete without holding every record at once. The result is the same text as
/// one ``MonitorExport`` call over all the records.
struct MonitorExportWriter {
    /// `json` or `csv`.
    let format: String
    /// Records written so far.
    private(set) var written = 0

    /// Starts an export in `format`.
    init(format: String) { self.format = format }

    /// Writes one page of records.
    mutating func write(_ records: [MonitorRecord]) throws {
        guard !records.isEmpty else { return }
        defer { written += records.count }
        if format == "csv" {
            let text = MonitorExport.csv(records)
            // Every page but the first drops the header row.
            let body = written == 0 ? Substring(text) : text[text.index(after: text.firstIndex(of: "\n") ?? text.startIndex)...]
            say(String(body), terminator: "")
            return
        }
        let array = try MonitorExport.json(records).trimmingCharacters(in: .whitespacesAndNewlines)
        // The elements of the page's array, without its brackets.
        let elements = array.dropFirst().dropLast().trimmingCharacters(in: .newlines)
        say((written == 0 ? "[\n" : ",\n") + elements, terminator: "")
    }

    /// Ends the export (an empty one is an empty array, or the CSV header alone).
    func finish() throws {
        if written > 0 {
            if format != "csv" { say("\n]") }
        } else {
            if format == "csv" { say(MonitorExport.csv([]), terminator: "") } else { say(try MonitorExport.json([])) }
        }
    }
}
