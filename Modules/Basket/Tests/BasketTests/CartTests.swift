import Basket
import Foundation
import Testing
import Tracking
import TrackingTestKit

/// The basket's event type: category, valid pairs, and the compile-time-safe events.
struct CartTests {
    @Test func categoryIsCartRatherThanTheTypeName() {
        #expect(Cart.category == "Cart")
    }

    @Test func validPairsAreExactlyTheDeclaredOnes() {
        let valid = Cart.Name.allCases.flatMap { name in
            Cart.Action.allCases.filter { Cart.isValid(name: name, action: $0) }.map { "\(name.rawValue)/\($0.rawValue)" }
        }
        #expect(valid == ["payment/select", "add/select", "add/other", "checkout/select", "checkout/pay"])
    }

    @Test(arguments: [
        CartEvent.quantityIncreased(to: 2), .quantityDecreased(to: 1), .paymentSelected(.payPal),
        .checkoutOpened(quantity: 1), .purchased(quantity: 2, payment: nil), .purchased(quantity: 1, payment: .visa),
    ])
    func everyCartEventIsAValidPair(event: CartEvent) {
        #expect(Cart.isValid(name: event.name, action: event.action))
    }

    @Test func anInvalidPairIsFlaggedReportedAndStillDelivered() throws {
        let recorder = RecordingPlugin()
        let violations = ViolationLog()
        let reporter = EventReporter<Cart>(plugins: [recorder], violationHandler: violations.handler)
        reporter.send(name: .payment, action: .pay)
        let event = try #require(recorder.events.first)
        #expect(event.hasFlag("invalid_pair"))
        #expect(violations.flags == [.invalidPair(name: "payment", action: "pay")])
        #expect(throws: EventExpectationFailure.self) {
            try recorder.expect(Cart.self, [(.payment, .pay)])
        }
        try recorder.expect(Cart.self, [(.payment, .pay)], strict: false)
    }
}

/// Collects what a ``ViolationHandler`` reports, thread-safely.
final class ViolationLog: Sendable {
    private let recorded = LockedValue<[EventFlag]>([])

    /// A handler that appends to this log.
    var handler: ViolationHandler { ViolationHandler { [self] _, flag in recorded.withLock { $0.append(flag) } } }

    /// The flags reported so far.
    var flags: [EventFlag] { recorded.withLock { $0 } }
}
