import Testing
import Tracking
import TrackingTestKit

/// Categories, pair validation, and sending declared events.
struct EventTypeTests {
    @Test func categoryDefaultsToTheTypeName() throws {
        #expect(Search.category == "Search")
        let recorder = RecordingPlugin()
        EventReporter<Search>(plugins: [recorder]).send(name: .query, action: .submitted)
        #expect(try #require(recorder.events.first).category == "Search")
    }

    @Test func categoryCanBeOverridden() throws {
        #expect(Cart.category == "Cart")
        let recorder = RecordingPlugin()
        EventReporter<Cart>(plugins: [recorder]).send(name: .add, action: .select)
        let event = try #require(recorder.events.first)
        #expect(event.category == "Cart")
        #expect(event.name == "add")
        #expect(event.action == "select")
    }

    @Test func everyPairIsValidByDefault() {
        #expect(Search.isValid(name: .query, action: .submitted))
    }

    @Test func aValidPairIsNotFlaggedOrReported() throws {
        let recorder = RecordingPlugin()
        let violations = ViolationLog()
        EventReporter<Cart>(plugins: [recorder], violationHandler: violations.handler).send(name: .payment, action: .select)
        #expect(try #require(recorder.events.first).flags.isEmpty)
        #expect(violations.reports.isEmpty)
    }

    @Test func anInvalidPairIsFlaggedReportedAtOnceAndStillDelivered() throws {
        let recorder = RecordingPlugin()
        let other = CountingPlugin()
        let violations = ViolationLog()
        let reporter = EventReporter<Cart>(plugins: [recorder, other], violationHandler: violations.handler)
        let receipts = reporter.send(name: .payment, action: .pay, userData: ["quantity": 1])

        let event = try #require(recorder.events.first)
        #expect(event.flags == [EventFlag(code: "invalid_pair", detail: "payment/pay")])
        #expect(event.flags.first?.description == "invalid_pair(payment/pay)")
        #expect(other.calls == 1)
        #expect(receipts.count == 1)

        let report = try #require(violations.reports.first)
        #expect(violations.reports.count == 1)
        #expect(report.flag == .invalidPair(name: "payment", action: "pay"))
        #expect(report.event.id == event.id)
    }

    @Test func aFeatureEventIsSentWithItsNameActionAndData() throws {
        let recorder = RecordingPlugin()
        let reporter = EventReporter<Cart>(plugins: [recorder])
        reporter.send(CartEvent.purchase(quantity: 2, cardType: "Visa"))
        reporter.send(CartEvent.addedOne)
        try recorder.expect([
            ExpectedEvent(Cart.self, .checkout, .pay, ["quantity": 2, "cardType": "Visa"]),
            ExpectedEvent(Cart.self, .add, .select, [:]),
        ])
        #expect(recorder.events.allSatisfy { $0.flags.isEmpty })
    }

    @Test func aReporterForAnotherFeatureSharesThePlugins() throws {
        let recorder = RecordingPlugin()
        let cart = EventReporter<Cart>(plugins: [recorder])
        cart.reporter(for: Search.self).send(name: .query, action: .submitted)
        #expect(recorder.events.map(\.category) == ["Search"])
    }

    @Test func sendingSeveralAtOnceDeliversAllInOrder() throws {
        let recorder = RecordingPlugin()
        let receipts = EventReporter<Cart>(plugins: [recorder]).send(contentsOf: [
            (name: .add, action: .select, userData: ["quantity": 2]),
            (name: .checkout, action: .pay, userData: [:]),
        ])
        #expect(receipts.count == 2)
        try recorder.expect(Cart.self, [(.add, .select), (.checkout, .pay)])
    }
}
