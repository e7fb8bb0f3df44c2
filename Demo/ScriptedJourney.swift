import Basket
import Onboarding
import Tracking
import Wishlist

/// The scripted user journey: onboarding, then the wishlist, then the basket and a purchase.
///
/// Every step goes through the features' own logic with reporters made from `base`, so the
/// events are exactly what the app would send.
struct ScriptedJourney {
    /// The reporter whose plugins and processors every feature shares.
    let base: EventReporter<OnboardingAnalytics>
    /// Called with the consent step's result (the demo wires it to consent management).
    var onConsents: @Sendable (ConsentChoices) -> Void = { _ in }
    /// Called when the user logs in, with the user id and traits (the demo identifies them).
    var onLogin: @Sendable (String, UserData) -> Void = { _, _ in }
    /// Called when the user logs out.
    var onLogout: @Sendable () -> Void = {}

    /// Runs the journey and returns how many feature actions it took.
    @discardableResult
    func run() -> Int {
        var steps = 0
        // Onboarding: register, decline marketing (the held promotion is deleted), log in.
        let onboarding = OnboardingFlow(reporter: base, onConsentsSubmitted: onConsents)
        // A promotion banner is seen before consent is known: the event is held.
        base.reporter(for: Promotion.self).send(name: .banner, action: .view, userData: ["campaign": "welcome-10"])
        onboarding.startRegistration()
        onboarding.enter(.email)
        onboarding.enter(.password)
        onboarding.submitRegistration()
        onboarding.setConsent(.legal, granted: true)
        onboarding.setConsent(.marketing, granted: false)
        onboarding.submitConsents()
        onboarding.startLogin()
        onboarding.enter(.email)
        onboarding.submitLogin(succeeded: true)
        onLogin("user-42", ["plan": "free", "signupSource": "onboarding"])
        steps += 12

        // Wishlist: look at the list, tidy it, move one item to the basket, leave for the basket.
        base.screen(name: "Wishlist", properties: ["items": 3])
        let wishlist = WishlistPage(reporter: base.reporter(for: WishlistAnalytics.self), itemIDs: ["sku-1", "sku-2", "sku-3"])
        wishlist.appear()
        wishlist.add("sku-4")
        wishlist.remove("sku-2", gesture: .swipe)
        wishlist.moveToBasket("sku-1")
        wishlist.leave(via: .basket)
        steps += 6

        // Basket: step the quantity (the rules keep it between 1 and 3), pay, purchase.
        base.screen(name: "Basket")
        let basket = BasketStepper(reporter: base.reporter(for: Cart.self))
        basket.decrement()          // at 1: sends nothing
        basket.increment()
        basket.increment()
        basket.increment()          // at 3: sends nothing
        basket.decrement()
        basket.selectPayment(.mastercard)   // Mastercard breaks the contract on purpose: flagged.
        basket.selectPayment(.mastercard)   // A double tap: flagged as a duplicate, still delivered.
        basket.openCheckout()
        basket.purchase()
        onLogout()
        steps += 10
        return steps
    }
}
