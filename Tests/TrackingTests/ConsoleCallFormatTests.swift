import Foundation
import Testing
import Tracking
import TrackingTestKit

@Suite("Console lines of identify and screen calls")
struct ConsoleCallFormatTests {
    @Test("screen: [screen] Name  {properties}; identify: [identify] {traits}; flags as for track")
    func plainLines() {
        let buffer = TextBuffer()
        let reporter = EventReporter<Cart>(plugins: [ConsoleReporter(stream: buffer)], violationHandler: .silent)
        reporter.screen(name: "Basket", properties: ["items": 3])
        reporter.screen(name: "Home")
        reporter.identify(traits: ["plan": "premium"])
        reporter.identify()
        reporter.screen(name: "")
        reporter.send(name: .add, action: .select)
        #expect(buffer.lines == [
            "[screen] Basket  {\"items\":3}",
            "[screen] Home",
            "[identify] {\"plan\":\"premium\"}",
            "[identify]",
            "[screen] \"\"  ⚑ empty_name(screen)",
            "[Cart] add · select",
        ])
    }

    @Test("the receipt's form is the line, and colour wraps the same text")
    func receiptsAndColour() {
        let buffer = TextBuffer()
        let console = ConsoleReporter(stream: buffer, colors: true)
        let receipts = EventReporter<Cart>(plugins: [console]).screen(name: "Basket", properties: ["items": 3])
        #expect(receipts.map(\.form) == buffer.lines)
        let line = buffer.lines.first ?? ""
        #expect(line == "\u{1B}[1;36m[screen]\u{1B}[0m \u{1B}[1mBasket\u{1B}[0m\u{1B}[2m  {\"items\":3}\u{1B}[0m")
        let identify = console.format(TrackedEvent(category: "$identify", name: "identify", action: "identify", userData: ["a": 1]))
        #expect(identify == "\u{1B}[1;36m[identify]\u{1B}[0m\u{1B}[2m {\"a\":1}\u{1B}[0m")
    }
}
