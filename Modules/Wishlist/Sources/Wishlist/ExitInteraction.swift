import Tracking

/// The interaction that led the user away from the wishlist.
public enum ExitInteraction: Sendable, Equatable {
    /// The navigation bar's back button.
    case backButton
    /// The edge-swipe back gesture.
    case swipeBack
    /// A tab bar item, by the tab's name.
    case tabBar(tab: String)
    /// An item's cell, opening its product page.
    case productDetail(itemID: String)
    /// The basket button.
    case basket

    /// The action the exit event carries: `swipe` for the gesture, `tap` otherwise.
    public var action: WishlistAnalytics.Action {
        if case .swipeBack = self { .swipe } else { .tap }
    }

    /// The stable name events carry as `via`, for example `tab_bar`.
    public var via: String {
        switch self {
        case .backButton: "back_button"
        case .swipeBack: "swipe_back"
        case .tabBar: "tab_bar"
        case .productDetail: "product_detail"
        case .basket: "basket"
        }
    }

    /// `via`, plus the tab or item where there is one.
    public var userData: UserData {
        switch self {
        case .backButton, .swipeBack, .basket: ["via": .string(via)]
        case .tabBar(let tab): ["via": .string(via), "tab": .string(tab)]
        case .productDetail(let itemID): ["via": .string(via), "itemID": .string(itemID)]
        }
    }
}
