import Foundation
import Testing
import Tracking
import TrackingTestKit

/// The console plugin's exact output.
struct ConsoleReporterTests {
    @Test func theNoArgumentInitializerWritesToStandardOutput() throws {
        // Standard output is pointed at a pipe for the duration of one send, then restored.
        let pipe = Pipe()
        let saved = dup(STDOUT_FILENO)
        try #require(saved >= 0)
        try #require(dup2(pipe.fileHandleForWriting.fileDescriptor, STDOUT_FILENO) >= 0)
        let console = ConsoleReporter()
        let receipts = EventReporter<Cart>(plugins: [console]).send(name: .add, action: .select, userData: ["quantity": 2])
        dup2(saved, STDOUT_FILENO)
        close(saved)
        try pipe.fileHandleForWriting.close()
        let written = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        // A pipe is not a terminal, so the line is plain, exactly as `.standardOutput()` writes it.
        #expect(written.contains("[Cart] add · select  {\"quantity\":2}\n"))
        #expect(receipts.map(\.plugin) == ["console"])
        #expect(receipts.map(\.form) == ["[Cart] add · select  {\"quantity\":2}"])
    }

    @Test func writesOneExactLinePerEventWithoutColourByDefault() {
        let buffer = TextBuffer()
        let reporter = EventReporter<Cart>(plugins: [ConsoleReporter(stream: buffer)])
        reporter.send(name: .checkout, action: .pay, userData: ["cardType": "Mastercard", "quantity": 3])
        reporter.send(name: .add, action: .select)
        #expect(buffer.text == "[Cart] checkout · pay  {\"cardType\":\"Mastercard\",\"quantity\":3}\n[Cart] add · select\n")
        #expect(!buffer.text.contains("\u{1B}"))
    }

    @Test func showsFlags() {
        let buffer = TextBuffer()
        EventReporter<Cart>(plugins: [ConsoleReporter(stream: buffer)], violationHandler: .silent).send(name: .payment, action: .pay)
        #expect(buffer.lines == ["[Cart] payment · pay  ⚑ invalid_pair(payment/pay)"])
    }

    @Test func usesColourOnlyWhenAsked() {
        let buffer = TextBuffer()
        EventReporter<Cart>(plugins: [ConsoleReporter(stream: buffer, colors: true)]).send(name: .add, action: .select, userData: ["quantity": 2])
        let line = buffer.lines.first ?? ""
        #expect(line == "\u{1B}[1;36m[Cart]\u{1B}[0m \u{1B}[1madd\u{1B}[0m · select\u{1B}[2m  {\"quantity\":2}\u{1B}[0m")
        let stripped = line.replacingOccurrences(of: "\u{1B}[1;36m", with: "")
            .replacingOccurrences(of: "\u{1B}[1m", with: "")
            .replacingOccurrences(of: "\u{1B}[2m", with: "")
            .replacingOccurrences(of: "\u{1B}[0m", with: "")
        #expect(stripped == "[Cart] add · select  {\"quantity\":2}")
    }

    @Test func formatMatchesWhatIsWritten() {
        let buffer = TextBuffer()
        let console = ConsoleReporter(stream: buffer)
        let event = TrackedEvent(category: "Search", name: "query", action: "submitted", userData: ["q": "shoes"])
        _ = console.send(event)
        #expect(buffer.lines == [console.format(event)])
        #expect(console.format(event) == "[Search] query · submitted  {\"q\":\"shoes\"}")
    }
}
