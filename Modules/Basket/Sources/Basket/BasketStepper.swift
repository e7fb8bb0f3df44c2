import Foundation
import Tracking

/// The basket's quantity stepper and purchase button: the feature logic that decides when
/// the basket reports.
///
/// Rules:
/// - ``decrement()`` sends only when the quantity is above ``minimumQuantity`` (1).
/// - ``increment()`` sends only when the quantity is below ``maximumQuantity`` (3).
/// - ``purchase()`` sends `checkout/pay` with the quantity (and card type, when chosen).
///
/// ```swift
/// let stepper = BasketStepper(reporter: reporter)
/// stepper.increment()   // Cart/add/select {"quantity":2}
/// stepper.purchase()    // Cart/checkout/pay {"quantity":2}
/// ```
public final class BasketStepper: Sendable {
    private let state: LockedValue<State>
    private let reporter: EventReporter<Cart>

    /// The lowest quantity the stepper allows.
    public static let minimumQuantity = 1
    /// The highest quantity the stepper allows.
    public static let maximumQuantity = 3

    private struct State {
        var quantity: Int
        var payment: PaymentMethod?
    }

    /// Creates a stepper.
    /// - Parameters:
    ///   - reporter: where the basket's events go.
    ///   - quantity: the starting quantity, clamped to 1...3.
    public init(reporter: EventReporter<Cart>, quantity: Int = 1) {
        self.reporter = reporter
        let clamped = min(max(quantity, Self.minimumQuantity), Self.maximumQuantity)
        self.state = LockedValue(State(quantity: clamped, payment: nil))
    }

    /// The current quantity, 1...3.
    public var quantity: Int { state.withLock { $0.quantity } }

    /// The chosen payment method, if any.
    public var payment: PaymentMethod? { state.withLock { $0.payment } }

    /// Adds one, unless the quantity is already at the maximum.
    /// - Returns: whether the quantity changed (and an event was sent).
    @discardableResult
    public func increment() -> Bool {
        let newQuantity: Int? = state.withLock { state in
            guard state.quantity < Self.maximumQuantity else { return nil }
            state.quantity += 1
            return state.quantity
        }
        guard let newQuantity else { return false }
        reporter.send(CartEvent.quantityIncreased(to: newQuantity))
        return true
    }

    /// Removes one, unless the quantity is already at the minimum.
    /// - Returns: whether the quantity changed (and an event was sent).
    @discardableResult
    public func decrement() -> Bool {
        let newQuantity: Int? = state.withLock { state in
            guard state.quantity > Self.minimumQuantity else { return nil }
            state.quantity -= 1
            return state.quantity
        }
        guard let newQuantity else { return false }
        reporter.send(CartEvent.quantityDecreased(to: newQuantity))
        return true
    }

    /// Chooses how to pay; sends `payment/select` with the card type.
    public func selectPayment(_ method: PaymentMethod) {
        state.withLock { $0.payment = method }
        reporter.send(CartEvent.paymentSelected(method))
    }

    /// Opens checkout; sends `checkout/select` with the quantity.
    public func openCheckout() {
        reporter.send(CartEvent.checkoutOpened(quantity: quantity))
    }

    /// Pays; sends `checkout/pay` with the quantity and, when chosen, the card type.
    /// - Returns: the quantity bought.
    @discardableResult
    public func purchase() -> Int {
        let current = state.withLock { $0 }
        reporter.send(CartEvent.purchased(quantity: current.quantity, payment: current.payment))
        return current.quantity
    }
}
