import Foundation
import Testing
import TestSupport
import Tracking
import TrackingTestKit

/// The test kit's own behaviour: readable failures, strict mode, snapshots.
struct TestKitTests {
    @Test func expectPassesForTheExactSequence() throws {
        let recorder = RecordingPlugin()
        let reporter = EventReporter<Cart>(plugins: [recorder])
        reporter.send(name: .add, action: .select)
        reporter.send(name: .checkout, action: .pay)
        try recorder.expect(Cart.self, [(.add, .select), (.checkout, .pay)])
    }

    @Test func expectFailureShowsExpectedAndGotByPosition() throws {
        let recorder = RecordingPlugin()
        let reporter = EventReporter<Cart>(plugins: [recorder])
        reporter.send(name: .add, action: .select)
        reporter.send(name: .add, action: .other, userData: ["quantity": 1])
        let failure = try #require(throws: EventExpectationFailure.self) {
            try recorder.expect(Cart.self, [(.add, .select), (.checkout, .pay), (.payment, .select)])
        }
        #expect(failure.description == """
            Events differ (expected 3, got 2):
              #1: expected Cart/checkout/pay
                   got      Cart/add/other {"quantity":1}
              #2: expected Cart/payment/select
                   got      nothing
            """)
    }

    @Test func expectFailureShowsUnexpectedExtraEvents() throws {
        let recorder = RecordingPlugin()
        EventReporter<Cart>(plugins: [recorder]).send(name: .add, action: .select)
        let failure = try #require(throws: EventExpectationFailure.self) { try recorder.expectNothing() }
        #expect(failure.description.contains("#0: expected nothing\n       got      Cart/add/select"))
    }

    @Test func expectationsCompareUserDataWhenGiven() throws {
        let recorder = RecordingPlugin()
        EventReporter<Cart>(plugins: [recorder]).send(name: .add, action: .select, userData: ["quantity": 2])
        try recorder.expect([ExpectedEvent(Cart.self, .add, .select, ["quantity": 2])])
        try recorder.expect([ExpectedEvent(Cart.self, .add, .select)])
        #expect(throws: EventExpectationFailure.self) {
            try recorder.expect([ExpectedEvent(Cart.self, .add, .select, ["quantity": 3])])
        }
    }

    @Test func featureExpectationIgnoresOtherFeatures() throws {
        let recorder = RecordingPlugin()
        let cart = EventReporter<Cart>(plugins: [recorder])
        cart.send(name: .add, action: .select)
        cart.reporter(for: Search.self).send(name: .query, action: .submitted)
        try recorder.expect(Cart.self, [(.add, .select)])
        try recorder.expect(Search.self, [(.query, .submitted)])
    }

    @Test func strictModeFailsOnInvalidPairsEvenWhenExpected() throws {
        let recorder = RecordingPlugin()
        EventReporter<Cart>(plugins: [recorder], violationHandler: .silent).send(name: .payment, action: .pay)
        let failure = try #require(throws: EventExpectationFailure.self) {
            try recorder.expect(Cart.self, [(.payment, .pay)])
        }
        #expect(failure.description.contains("flagged invalid_pair(payment/pay)"))
        try recorder.expect(Cart.self, [(.payment, .pay)], strict: false)
        #expect(throws: EventExpectationFailure.self) {
            try EventDiff.check(expected: [ExpectedEvent(Cart.self, .payment, .pay)], got: recorder.events, strict: true)
        }
    }

    @Test func snapshotIsRecordedWhenMissingThenComparedAndReRecordedOnRequest() throws {
        let folder = try TemporaryDirectory(prefix: "TrackingTests")
        defer { folder.remove() }
        let file = folder.file("journey.txt")
        let first = [TrackedEvent(category: "Cart", name: "add", action: "select", userData: ["quantity": 2], context: ["app": "x"])]
        #expect(try JourneySnapshot.assertMatches(first, file: file, environment: [:]))
        #expect(try String(contentsOf: file, encoding: .utf8) == "Cart/add/select {\"quantity\":2}\n")

        let sameButNewIds = [TrackedEvent(category: "Cart", name: "add", action: "select", userData: ["quantity": 2])]
        #expect(try !JourneySnapshot.assertMatches(sameButNewIds, file: file, environment: [:]))

        let changed = [TrackedEvent(category: "Cart", name: "add", action: "other", userData: ["quantity": 1])]
        let mismatch = try #require(throws: JourneySnapshotMismatch.self) {
            try JourneySnapshot.assertMatches(changed, file: file, environment: [:])
        }
        #expect(mismatch.diff == "- #0: Cart/add/select {\"quantity\":2}\n+ #0: Cart/add/other {\"quantity\":1}")

        #expect(try JourneySnapshot.assertMatches(changed, file: file, environment: ["RECORD_SNAPSHOTS": "1"]))
        #expect(try !JourneySnapshot.assertMatches(changed, file: file, environment: [:]))
    }
}
