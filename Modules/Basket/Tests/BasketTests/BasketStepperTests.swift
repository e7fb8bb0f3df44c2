import Basket
import Testing
import Tracking
import TrackingTestKit

/// The stepper's rules, each through a `RecordingPlugin`.
struct BasketStepperTests {
    let recorder = RecordingPlugin()
    var reporter: EventReporter<Cart> { EventReporter(plugins: [recorder], violationHandler: .silent) }

    @Test func incrementBelowMaximumSendsAddSelectWithTheNewQuantity() throws {
        let stepper = BasketStepper(reporter: reporter)
        #expect(stepper.increment())
        try recorder.expect(Cart.self, [(.add, .select)])
        #expect(recorder.events.first?.userData["quantity"] == 2)
        #expect(stepper.quantity == 2)
    }

    @Test func incrementAtMaximumSendsNothing() throws {
        let stepper = BasketStepper(reporter: reporter, quantity: 3)
        #expect(!stepper.increment())
        try recorder.expectNothing()
        #expect(stepper.quantity == 3)
    }

    @Test func incrementStopsSendingOnceTheMaximumIsReached() throws {
        let stepper = BasketStepper(reporter: reporter)
        for _ in 0..<5 { stepper.increment() }
        try recorder.expect(Cart.self, [(.add, .select), (.add, .select)])
        #expect(recorder.events.map { $0.userData["quantity"] } == [2, 3])
    }

    @Test func decrementAboveMinimumSendsAddOtherWithTheNewQuantity() throws {
        let stepper = BasketStepper(reporter: reporter, quantity: 2)
        #expect(stepper.decrement())
        try recorder.expect([ExpectedEvent(Cart.self, .add, .other, ["quantity": 1])])
        #expect(stepper.quantity == 1)
    }

    @Test func decrementAtOneSendsNothing() throws {
        let stepper = BasketStepper(reporter: reporter)
        #expect(!stepper.decrement())
        try recorder.expectNothing()
        #expect(stepper.quantity == 1)
    }

    @Test func startingQuantityIsClampedToTheAllowedRange() {
        #expect(BasketStepper(reporter: reporter, quantity: 0).quantity == 1)
        #expect(BasketStepper(reporter: reporter, quantity: 9).quantity == 3)
    }

    @Test func purchaseSendsCheckoutPayWithTheQuantity() throws {
        let stepper = BasketStepper(reporter: reporter)
        stepper.increment()
        recorder.reset()
        #expect(stepper.purchase() == 2)
        try recorder.expect([ExpectedEvent(Cart.self, .checkout, .pay, ["quantity": 2])])
        let purchase = try #require(recorder.events.first)
        #expect(purchase.userData["quantity"] == 2)
        #expect(purchase.userData["quantity"]?.intValue == 2)
    }

    @Test func purchaseAfterChoosingPaymentCarriesTheCardType() throws {
        let stepper = BasketStepper(reporter: reporter, quantity: 3)
        stepper.selectPayment(.mastercard)
        stepper.purchase()
        try recorder.expect([
            ExpectedEvent(Cart.self, .payment, .select, ["cardType": "Mastercard"]),
            ExpectedEvent(Cart.self, .checkout, .pay, ["quantity": 3, "cardType": "Mastercard"]),
        ])
    }

    @Test func openCheckoutSendsCheckoutSelectWithTheQuantity() throws {
        let stepper = BasketStepper(reporter: reporter, quantity: 2)
        stepper.openCheckout()
        try recorder.expect([ExpectedEvent(Cart.self, .checkout, .select, ["quantity": 2])])
    }

    @Test func everyEventTheStepperSendsIsAValidPairAndUnflagged() throws {
        let stepper = BasketStepper(reporter: reporter)
        stepper.increment()
        stepper.decrement()
        stepper.selectPayment(.visa)
        stepper.openCheckout()
        stepper.purchase()
        #expect(recorder.events.count == 5)
        #expect(recorder.events.allSatisfy { $0.flags.isEmpty })
        #expect(recorder.events.allSatisfy { $0.category == "Cart" })
    }
}
