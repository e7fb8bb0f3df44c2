import Basket
import Onboarding
import Tracking
import Wishlist

/// Sends a rotating mix of events across the three features, each with four userData fields.
public struct LoadGenerator: Sendable {
    private let cart: EventReporter<Cart>
    private let wishlist: EventReporter<WishlistAnalytics>
    private let onboarding: EventReporter<OnboardingAnalytics>

    /// The mix sent straight to `plugins` (a Dispatcher), with no stages.
    public init(plugins: [any EventReporterPlugin]) {
        self.init(reporter: EventReporter(plugins: plugins, violationHandler: .silent))
    }

    /// The mix sent through `reporter`'s stages and plugins (`analytics.reporter(for:)`).
    public init(reporter: EventReporter<OnboardingAnalytics>) {
        onboarding = reporter
        cart = onboarding.reporter(for: Cart.self)
        wishlist = onboarding.reporter(for: WishlistAnalytics.self)
    }

    /// An event like the ones the mix sends, for sizing.
    public func sampleEvent() -> TrackedEvent { trackedEvent(0, userData: userData(for: 0)) }

    /// The four userData fields of the `index`-th event of the mix.
    public func userData(for index: Int) -> UserData {
        switch index % 3 {
        case 0: ["sku": "sku-\(index % 97)", "quantity": .int(index % 3 + 1), "price": 19.99, "gift": false]
        case 1: ["itemID": "sku-\(index % 89)", "position": .int(index % 10), "source": "home", "sale": true]
        default: ["method": "email", "attempt": .int(index % 4), "remember": true, "latencyMs": 120.5]
        }
    }

    /// The `index`-th event's four fields with its integer field set to `index`, so that no two
    /// events of a run are alike (none is flagged a duplicate).
    public func distinctUserData(for index: Int) -> UserData {
        var data = userData(for: index)
        switch index % 3 {
        case 0: data["quantity"] = .int(index)
        case 1: data["position"] = .int(index)
        default: data["attempt"] = .int(index)
        }
        return data
    }

    /// The `index`-th event of the mix as a plugin would see it before any stage.
    public func trackedEvent(_ index: Int, userData: UserData) -> TrackedEvent {
        switch index % 3 {
        case 0: TrackedEvent(category: Cart.category, name: Cart.Name.add.rawValue, action: Cart.Action.select.rawValue, userData: userData)
        case 1: TrackedEvent(category: WishlistAnalytics.category, name: WishlistAnalytics.Name.add.rawValue, action: WishlistAnalytics.Action.tap.rawValue, userData: userData)
        default: TrackedEvent(category: OnboardingAnalytics.category, name: OnboardingAnalytics.Name.login.rawValue, action: OnboardingAnalytics.Action.submitted.rawValue, userData: userData)
        }
    }

    /// Sends the `index`-th event of the mix and returns its receipts.
    @discardableResult
    public func send(_ index: Int) -> [Receipt] { send(index, userData: userData(for: index)) }

    /// Sends the `index`-th event of the mix with data made beforehand (the bench times only this).
    @discardableResult
    public func send(_ index: Int, userData: UserData) -> [Receipt] {
        switch index % 3 {
        case 0: cart.send(name: .add, action: .select, userData: userData)
        case 1: wishlist.send(name: .add, action: .tap, userData: userData)
        default: onboarding.send(name: .login, action: .submitted, userData: userData)
        }
    }
}
