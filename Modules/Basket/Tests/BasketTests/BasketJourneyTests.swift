import Basket
import Foundation
import Testing
import Tracking
import TrackingTestKit

/// The basket journey, compared with its recorded snapshot.
struct BasketJourneyTests {
    static let snapshot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent()
        .appendingPathComponent("__Snapshots__/basket-journey.txt")

    /// Up to three, back to two, pay by Mastercard, with the no-op taps in between.
    static func journey() -> [TrackedEvent] {
        let recorder = RecordingPlugin()
        let stepper = BasketStepper(reporter: EventReporter(plugins: [recorder]))
        stepper.decrement()
        stepper.increment()
        stepper.increment()
        stepper.increment()
        stepper.decrement()
        stepper.selectPayment(.mastercard)
        stepper.openCheckout()
        stepper.purchase()
        return recorder.events
    }

    @Test func journeyMatchesItsSnapshot() throws {
        try JourneySnapshot.assertMatches(Self.journey(), file: Self.snapshot)
        let recorded = try String(contentsOf: Self.snapshot, encoding: .utf8)
        #expect(recorded.contains("Cart/checkout/pay {\"cardType\":\"Mastercard\",\"quantity\":2}"))
    }

    @Test func aChangedJourneyThrowsAReadableDiff() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("BasketTests-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("journey.txt")
        let events = Self.journey()
        #expect(try JourneySnapshot.assertMatches(events, file: file, environment: [:]))

        let changed = events.dropLast() + [TrackedEvent(category: "Cart", name: "checkout", action: "pay", userData: ["quantity": 3])]
        let error = try #require(throws: JourneySnapshotMismatch.self) {
            try JourneySnapshot.assertMatches(Array(changed), file: file, environment: [:])
        }
        #expect(error.description.contains("- #5: Cart/checkout/pay {\"cardType\":\"Mastercard\",\"quantity\":2}"))
        #expect(error.description.contains("+ #5: Cart/checkout/pay {\"quantity\":3}"))
        #expect(error.description.contains("RECORD_SNAPSHOTS=1"))
    }
}
