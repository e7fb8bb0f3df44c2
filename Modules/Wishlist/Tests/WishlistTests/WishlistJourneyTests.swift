import Foundation
import Testing
import Tracking
import TrackingTestKit
import Wishlist

/// The wishlist journey, compared with its recorded snapshot.
struct WishlistJourneyTests {
    static let snapshot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent()
        .appendingPathComponent("__Snapshots__/wishlist-journey.txt")

    /// View three items, add one, swipe one away, move one to the basket, leave via the basket.
    static func journey() -> [TrackedEvent] {
        let recorder = RecordingPlugin()
        let page = WishlistPage(reporter: EventReporter(plugins: [recorder]), itemIDs: ["sku-101", "sku-202", "sku-303"])
        page.appear()
        page.add("sku-404")
        page.add("sku-101")
        page.remove("sku-202", gesture: .swipe)
        page.moveToBasket("sku-303")
        page.leave(via: .basket)
        return recorder.events
    }

    @Test func journeyMatchesItsSnapshot() throws {
        let events = Self.journey()
        try JourneySnapshot.assertMatches(events, file: Self.snapshot)
        #expect(events.count == 5)
    }

    @Test func aChangedJourneyThrowsAReadableDiff() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("WishlistTests-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("journey.txt")
        var events = Self.journey()
        try JourneySnapshot.assertMatches(events, file: file, environment: [:])

        events[0].userData["itemIDs"] = ["sku-101"]
        let error = try #require(throws: JourneySnapshotMismatch.self) {
            try JourneySnapshot.assertMatches(events, file: file, environment: [:])
        }
        #expect(error.description.contains("+ #0: Wishlist/page/view {\"isEmpty\":false,\"itemCount\":3,\"itemIDs\":[\"sku-101\"]}"))
        #expect(!error.description.contains("#1:"))
    }
}
