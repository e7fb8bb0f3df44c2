import Tracking

/// The wishlist's events, in the category `"Wishlist"`.
///
/// Valid pairs (anything else is flagged `invalid_pair` and reported):
///
/// | name             | actions        |
/// |------------------|----------------|
/// | `page`           | `view`         |
/// | `add`            | `tap`          |
/// | `remove`         | `tap`, `swipe` |
/// | `move_to_basket` | `tap`          |
/// | `exit`           | `tap`, `swipe` |
public enum WishlistAnalytics: EventType {
    /// What happened on the wishlist.
    public enum Name: String, Sendable, CaseIterable {
        /// The page was shown.
        case page
        /// An item was added.
        case add
        /// An item was removed.
        case remove
        /// An item was moved to the basket.
        case moveToBasket = "move_to_basket"
        /// The user left the page.
        case exit
    }

    /// How.
    public enum Action: String, Sendable, CaseIterable {
        /// Shown on screen.
        case view
        /// A tap on a button or cell.
        case tap
        /// A swipe gesture.
        case swipe
    }

    /// `"Wishlist"`.
    public static let category = "Wishlist"

    /// Whether `name` may be sent with `action`. A switch: it runs on every send, so it must be cheap.
    public static func isValid(name: Name, action: Action) -> Bool {
        switch (name, action) {
        case (.page, .view), (.add, .tap), (.remove, .tap), (.remove, .swipe), (.moveToBasket, .tap),
             (.exit, .tap), (.exit, .swipe): true
        default: false
        }
    }
}
