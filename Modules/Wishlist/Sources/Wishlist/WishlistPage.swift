import Foundation
import Tracking

/// The wishlist page: its items and the moments it reports.
///
/// Rules:
/// - ``appear()`` sends one page view per visit, with the ids shown (an array); appearing again
///   before leaving sends nothing.
/// - ``add(_:)`` sends only when the item is new; ``remove(_:gesture:)`` and
///   ``moveToBasket(_:)`` only when the item is on the list.
/// - ``leave(via:)`` sends the exit interaction once per visit, and only after a page view.
/// - ``moveToBasket(_:)`` hands the item to `onMoveToBasket`, so the app can add it to the basket.
public final class WishlistPage: Sendable {
    private let state: LockedValue<State>
    private let reporter: EventReporter<WishlistAnalytics>
    private let onMoveToBasket: @Sendable (String) -> Void

    private struct State {
        var itemIDs: [String]
        var isVisible = false
    }

    /// Creates the page.
    /// - Parameters:
    ///   - reporter: where the wishlist's events go.
    ///   - itemIDs: the items already on the list, in order; duplicates are dropped.
    ///   - onMoveToBasket: called with an item's id when it is moved to the basket.
    public init(
        reporter: EventReporter<WishlistAnalytics>,
        itemIDs: [String] = [],
        onMoveToBasket: @escaping @Sendable (String) -> Void = { _ in }
    ) {
        self.reporter = reporter
        self.onMoveToBasket = onMoveToBasket
        var unique: [String] = []
        for id in itemIDs where !unique.contains(id) { unique.append(id) }
        self.state = LockedValue(State(itemIDs: unique))
    }

    /// The items on the list, in order.
    public var itemIDs: [String] { state.withLock { $0.itemIDs } }

    /// Whether the page is on screen.
    public var isVisible: Bool { state.withLock { $0.isVisible } }

    /// The page came on screen. Sends `page/view` with the item ids, once per visit.
    /// - Returns: whether a page view was sent.
    @discardableResult
    public func appear() -> Bool {
        let shown: [String]? = state.withLock { state in
            guard !state.isVisible else { return nil }
            state.isVisible = true
            return state.itemIDs
        }
        guard let shown else { return false }
        reporter.send(WishlistEvent.pageViewed(itemIDs: shown))
        return true
    }

    /// Adds an item at the end. Sends `add/tap` with its id and position, only when it is new.
    /// - Returns: whether the item was added.
    @discardableResult
    public func add(_ itemID: String) -> Bool {
        let position: Int? = state.withLock { state in
            guard !state.itemIDs.contains(itemID) else { return nil }
            state.itemIDs.append(itemID)
            return state.itemIDs.count - 1
        }
        guard let position else { return false }
        reporter.send(WishlistEvent.added(itemID: itemID, position: position))
        return true
    }

    /// Removes an item. Sends `remove/tap` or `remove/swipe`, only when it was on the list.
    /// - Returns: whether the item was removed.
    @discardableResult
    public func remove(_ itemID: String, gesture: RemovalGesture = .tap) -> Bool {
        guard let remaining = take(itemID) else { return false }
        reporter.send(WishlistEvent.removed(itemID: itemID, gesture: gesture, remaining: remaining))
        return true
    }

    /// Moves an item to the basket. Sends `move_to_basket/tap` and calls `onMoveToBasket`,
    /// only when it was on the list.
    /// - Returns: whether the item was moved.
    @discardableResult
    public func moveToBasket(_ itemID: String) -> Bool {
        guard let remaining = take(itemID) else { return false }
        reporter.send(WishlistEvent.movedToBasket(itemID: itemID, remaining: remaining))
        onMoveToBasket(itemID)
        return true
    }

    /// The user left the page. Sends `exit/tap` or `exit/swipe` with the interaction, once per
    /// visit and only while the page is visible.
    /// - Returns: whether an exit was sent.
    @discardableResult
    public func leave(via interaction: ExitInteraction) -> Bool {
        let itemCount: Int? = state.withLock { state in
            guard state.isVisible else { return nil }
            state.isVisible = false
            return state.itemIDs.count
        }
        guard let itemCount else { return false }
        reporter.send(WishlistEvent.exited(interaction, itemCount: itemCount))
        return true
    }

    /// Removes `itemID` and returns how many items remain, or `nil` when it was not there.
    private func take(_ itemID: String) -> Int? {
        state.withLock { state in
            guard let index = state.itemIDs.firstIndex(of: itemID) else { return nil }
            state.itemIDs.remove(at: index)
            return state.itemIDs.count
        }
    }
}
