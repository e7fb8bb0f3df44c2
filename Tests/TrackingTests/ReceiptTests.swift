import Foundation
import Testing
import Tracking
import TrackingTestKit

/// Receipts: which plugin handled which event, when, in what form.
struct ReceiptTests {
    @Test func eachHandlingPluginReturnsAReceiptForTheEvent() throws {
        let first = RecordingPlugin(name: "first")
        let second = RecordingPlugin(name: "second")
        let before = Date()
        let receipts = EventReporter<Cart>(plugins: [first, NoOpPlugin(), second]).send(name: .add, action: .select, userData: ["quantity": 2])
        let after = Date()
        let event = try #require(first.events.first)

        #expect(receipts.map(\.plugin) == ["first", "second"])
        #expect(receipts.allSatisfy { $0.eventID == event.id })
        #expect(receipts.allSatisfy { $0.handledAt >= before && $0.handledAt <= after })
        #expect(receipts.first?.form == #"Cart/add/select {"quantity":2}"#)
        #expect(first.receipts == [receipts[0]])
        #expect(second.receipts == [receipts[1]])
    }

    @Test func consoleReceiptCarriesThePrintedLine() throws {
        let buffer = TextBuffer()
        let receipts = EventReporter<Cart>(plugins: [ConsoleReporter(stream: buffer)]).send(name: .add, action: .select)
        let receipt = try #require(receipts.first)
        #expect(receipt.plugin == "console")
        #expect(receipt.form == buffer.lines.first)
    }

    @Test func receiptsRoundTripThroughCodable() throws {
        let receipt = Receipt(plugin: "p", eventID: EventID.make(), handledAt: Date(timeIntervalSince1970: 1_700_000_000.5), form: "x")
        let decoded = try JSONDecoder().decode(Receipt.self, from: JSONEncoder().encode(receipt))
        #expect(decoded == receipt)
    }

    @Test func resetForgetsEventsAndReceipts() {
        let recorder = RecordingPlugin()
        EventReporter<Cart>(plugins: [recorder]).send(name: .add, action: .select)
        recorder.reset()
        #expect(recorder.events.isEmpty)
        #expect(recorder.receipts.isEmpty)
    }
}
