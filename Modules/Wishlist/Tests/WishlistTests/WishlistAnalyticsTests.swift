import Testing
import Tracking
import TrackingTestKit
import Wishlist

/// The wishlist's event type: category, valid pairs, and the compile-time-safe events.
struct WishlistAnalyticsTests {
    @Test func categoryIsWishlist() {
        #expect(WishlistAnalytics.category == "Wishlist")
    }

    @Test func validPairsAreExactlyTheDeclaredOnes() {
        let valid = WishlistAnalytics.Name.allCases.flatMap { name in
            WishlistAnalytics.Action.allCases
                .filter { WishlistAnalytics.isValid(name: name, action: $0) }
                .map { "\(name.rawValue)/\($0.rawValue)" }
        }
        #expect(valid == ["page/view", "add/tap", "remove/tap", "remove/swipe", "move_to_basket/tap", "exit/tap", "exit/swipe"])
    }

    @Test(arguments: [
        WishlistEvent.pageViewed(itemIDs: []), .added(itemID: "a", position: 0),
        .removed(itemID: "a", gesture: .swipe, remaining: 0), .removed(itemID: "a", gesture: .tap, remaining: 0),
        .movedToBasket(itemID: "a", remaining: 0), .exited(.swipeBack, itemCount: 0), .exited(.basket, itemCount: 0),
    ])
    func everyWishlistEventIsAValidPair(event: WishlistEvent) {
        #expect(WishlistAnalytics.isValid(name: event.name, action: event.action))
    }

    @Test func anInvalidPairIsFlaggedAndStillDelivered() throws {
        let recorder = RecordingPlugin()
        let reporter = EventReporter<WishlistAnalytics>(plugins: [recorder], violationHandler: .silent)
        reporter.send(name: .page, action: .swipe)
        #expect(recorder.events.first?.hasFlag("invalid_pair") == true)
    }
}
