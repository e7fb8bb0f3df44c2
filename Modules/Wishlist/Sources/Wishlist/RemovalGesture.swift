/// How the user removed an item from the wishlist.
public enum RemovalGesture: String, Sendable, CaseIterable {
    /// The remove button.
    case tap
    /// Swipe to delete.
    case swipe

    /// The action the remove event carries.
    public var action: WishlistAnalytics.Action {
        switch self {
        case .tap: .tap
        case .swipe: .swipe
        }
    }
}
