import Tracking

/// Every event the wishlist sends, as a value: a wrong name/action pair cannot be written.
public enum WishlistEvent: FeatureEvent, Equatable {
    /// The feature these events belong to.
    public typealias Feature = WishlistAnalytics

    /// The page was shown with these item ids, in order.
    case pageViewed(itemIDs: [String])
    /// An item was added at `position` (0-based).
    case added(itemID: String, position: Int)
    /// An item was removed; `remaining` items are left.
    case removed(itemID: String, gesture: RemovalGesture, remaining: Int)
    /// An item was moved to the basket; `remaining` items are left.
    case movedToBasket(itemID: String, remaining: Int)
    /// The user left the page with `itemCount` items on it.
    case exited(ExitInteraction, itemCount: Int)

    /// The event's name.
    public var name: WishlistAnalytics.Name {
        switch self {
        case .pageViewed: .page
        case .added: .add
        case .removed: .remove
        case .movedToBasket: .moveToBasket
        case .exited: .exit
        }
    }

    /// The event's action.
    public var action: WishlistAnalytics.Action {
        switch self {
        case .pageViewed: .view
        case .added, .movedToBasket: .tap
        case .removed(_, let gesture, _): gesture.action
        case .exited(let interaction, _): interaction.action
        }
    }

    /// The event's typed data.
    public var userData: UserData {
        switch self {
        case .pageViewed(let itemIDs):
            ["itemIDs": .array(itemIDs.map { .string($0) }), "itemCount": .int(itemIDs.count), "isEmpty": .bool(itemIDs.isEmpty)]
        case .added(let itemID, let position):
            ["itemID": .string(itemID), "position": .int(position)]
        case .removed(let itemID, _, let remaining), .movedToBasket(let itemID, let remaining):
            ["itemID": .string(itemID), "remaining": .int(remaining)]
        case .exited(let interaction, let itemCount):
            interaction.userData.merging(["itemCount": .int(itemCount)]) { current, _ in current }
        }
    }
}
