@testable import Dispatcher
import Foundation
import TestSupport
import Testing
import Tracking

/// `demo monitor` shows what events carry without letting it drive the terminal or a
/// spreadsheet: control characters escaped in the table and the CSV, and CSV cells starting with
/// `=`, `+`, `-` or `@` prefixed with `'` and quoted (OWASP).
@Suite("demo monitor: terminal and CSV injection")
struct MonitorEscapingTests {
    static let hostile = "x\u{1B}[2J\u{1B}]0;pwned\u{07}\ny\u{9B}8m"

    /// A store holding one event with control characters and one with formulas.
    private static func store(in directory: TemporaryDirectory) async throws -> String {
        let path = directory.file("events.sqlite").path
        let dispatcher = try Dispatcher(configuration: DispatcherConfiguration(storePath: path))
        _ = dispatcher.send(TrackedEvent(category: hostile, name: hostile, action: hostile, userData: ["k": .string("\u{9B}2J")]))
        _ = dispatcher.send(TrackedEvent(category: "=HYPERLINK(\"http://127.0.0.1/x\",\"go\")", name: "+1+1", action: "@SUM(A1)",
                                         flags: [EventFlag(code: "-2+3")]))
        _ = await dispatcher.drain(timeout: 10)
        await dispatcher.close()
        return path
    }

    private static func monitor(_ store: String, _ format: String) async throws -> (status: Int32?, lines: [String]) {
        let child = try DemoProcess(["monitor", "--store", store, "--status", "all", "--format", format])
        let status = await child.wait(timeout: 60)
        return (status, child.outputLines)
    }

    @Test("The table and the CSV hold no control character and one line per event; formulas are neutralised")
    func tableAndCSV() async throws {
        let directory = try TemporaryDirectory(prefix: "monitor-escaping")
        let store = try await Self.store(in: directory)
        let table = try await Self.monitor(store, "table")
        #expect(table.status == 0)
        #expect(!table.lines.joined().unicodeScalars.contains(where: TerminalText.isControl), "\(table.lines)")
        #expect(table.lines.count == 4, "header, two rows, the counts: \(table.lines)")
        #expect(table.lines.contains { $0.contains("x\\u{1B}[2J\\u{1B}]0;pwned\\u{7}\\ny\\u{9B}8m") })

        let csv = try await Self.monitor(store, "csv")
        #expect(csv.status == 0)
        #expect(!csv.lines.joined().unicodeScalars.contains(where: TerminalText.isControl))
        #expect(csv.lines.count == 3, "header and two rows: \(csv.lines)")
        let formulaRow = try #require(csv.lines.first { $0.contains("HYPERLINK") })
        let cells = formulaRow.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
        #expect(cells[1] == "\"'=HYPERLINK(\"\"http://127.0.0.1/x\"\"", "\(cells)")
        #expect(cells.contains("\"'+1+1\"") && cells.contains("\"'@SUM(A1)\"") && cells.contains("\"'-2+3\""), "\(cells)")
        #expect(!cells.contains { $0.first.map { "=+-@".contains($0) } ?? false })
    }
}
