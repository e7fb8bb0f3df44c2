import Foundation
import Testing
import Tracking
import TrackingTestKit
import Wishlist

/// The wishlist page's rules, each through a `RecordingPlugin`.
struct WishlistPageTests {
    let recorder = RecordingPlugin()
    var reporter: EventReporter<WishlistAnalytics> { EventReporter(plugins: [recorder], violationHandler: .silent) }

    @Test func pageViewCarriesTheItemIDsShownAsAnArray() throws {
        let page = WishlistPage(reporter: reporter, itemIDs: ["sku-1", "sku-2", "sku-1"])
        #expect(page.appear())
        try recorder.expect([
            ExpectedEvent(WishlistAnalytics.self, .page, .view, ["itemIDs": ["sku-1", "sku-2"], "itemCount": 2, "isEmpty": false]),
        ])
        #expect(recorder.events.first?.userData["itemIDs"] == .array(["sku-1", "sku-2"]))
    }

    @Test func anEmptyPageViewSaysSo() throws {
        let page = WishlistPage(reporter: reporter)
        page.appear()
        #expect(recorder.events.first?.userData == ["itemIDs": [], "itemCount": 0, "isEmpty": true])
    }

    @Test func appearingTwiceInOneVisitSendsOnePageView() throws {
        let page = WishlistPage(reporter: reporter, itemIDs: ["a"])
        page.appear()
        #expect(!page.appear())
        try recorder.expect(WishlistAnalytics.self, [(.page, .view)])
    }

    @Test func aNewVisitSendsANewPageView() throws {
        let page = WishlistPage(reporter: reporter, itemIDs: ["a"])
        page.appear()
        page.leave(via: .backButton)
        #expect(page.appear())
        try recorder.expect(WishlistAnalytics.self, [(.page, .view), (.exit, .tap), (.page, .view)])
    }

    @Test func addingANewItemSendsItsIDAndPosition() throws {
        let page = WishlistPage(reporter: reporter, itemIDs: ["a"])
        #expect(page.add("b"))
        try recorder.expect([ExpectedEvent(WishlistAnalytics.self, .add, .tap, ["itemID": "b", "position": 1])])
        #expect(page.itemIDs == ["a", "b"])
    }

    @Test func addingAnItemAlreadyThereSendsNothing() throws {
        let page = WishlistPage(reporter: reporter, itemIDs: ["a"])
        #expect(!page.add("a"))
        try recorder.expectNothing()
    }

    @Test func removingSendsTheGestureAsTheAction() throws {
        let page = WishlistPage(reporter: reporter, itemIDs: ["a", "b"])
        page.remove("a", gesture: .swipe)
        page.remove("b")
        try recorder.expect([
            ExpectedEvent(WishlistAnalytics.self, .remove, .swipe, ["itemID": "a", "remaining": 1]),
            ExpectedEvent(WishlistAnalytics.self, .remove, .tap, ["itemID": "b", "remaining": 0]),
        ])
    }

    @Test func removingAnItemNotThereSendsNothing() throws {
        let page = WishlistPage(reporter: reporter, itemIDs: ["a"])
        #expect(!page.remove("zzz"))
        #expect(!page.moveToBasket("zzz"))
        try recorder.expectNothing()
        #expect(page.itemIDs == ["a"])
    }

    @Test func movingToBasketSendsTheEventAndHandsTheItemOn() throws {
        let moved = ItemLog()
        let page = WishlistPage(reporter: reporter, itemIDs: ["a", "b"], onMoveToBasket: moved.append)
        #expect(page.moveToBasket("b"))
        try recorder.expect([ExpectedEvent(WishlistAnalytics.self, .moveToBasket, .tap, ["itemID": "b", "remaining": 1])])
        #expect(recorder.events.first?.name == "move_to_basket")
        #expect(moved.items == ["b"])
        #expect(page.itemIDs == ["a"])
    }

    @Test(arguments: [
        (ExitInteraction.backButton, "tap", ["via": "back_button", "itemCount": 1] as UserData),
        (.swipeBack, "swipe", ["via": "swipe_back", "itemCount": 1]),
        (.tabBar(tab: "home"), "tap", ["via": "tab_bar", "tab": "home", "itemCount": 1]),
        (.productDetail(itemID: "a"), "tap", ["via": "product_detail", "itemID": "a", "itemCount": 1]),
        (.basket, "tap", ["via": "basket", "itemCount": 1]),
    ])
    func leavingSendsTheExitInteraction(interaction: ExitInteraction, action: String, userData: UserData) throws {
        let page = WishlistPage(reporter: reporter, itemIDs: ["a"])
        page.appear()
        #expect(page.leave(via: interaction))
        let exit = try #require(recorder.events.last)
        #expect(exit.name == "exit")
        #expect(exit.action == action)
        #expect(exit.userData == userData)
        #expect(exit.flags.isEmpty)
    }

    @Test func leavingWithoutAPageViewOrTwiceSendsNothingMore() throws {
        let page = WishlistPage(reporter: reporter, itemIDs: ["a"])
        #expect(!page.leave(via: .backButton))
        try recorder.expectNothing()
        page.appear()
        page.leave(via: .basket)
        #expect(!page.leave(via: .backButton))
        try recorder.expect(WishlistAnalytics.self, [(.page, .view), (.exit, .tap)])
    }
}

/// Collects the item ids handed to `onMoveToBasket`, thread-safely.
final class ItemLog: Sendable {
    private let recorded = LockedValue<[String]>([])

    /// Appends one id.
    @Sendable func append(_ itemID: String) { recorded.withLock { $0.append(itemID) } }

    /// What was received, in order.
    var items: [String] { recorded.withLock { $0 } }
}
