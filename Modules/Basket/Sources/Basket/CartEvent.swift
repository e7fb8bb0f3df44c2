import Tracking

/// Every event the basket sends, as a value: a wrong name/action pair cannot be written.
public enum CartEvent: FeatureEvent, Equatable {
    /// The feature these events belong to.
    public typealias Feature = Cart

    /// The quantity went up to `quantity`.
    case quantityIncreased(to: Int)
    /// The quantity went down to `quantity`.
    case quantityDecreased(to: Int)
    /// A payment method was chosen.
    case paymentSelected(PaymentMethod)
    /// Checkout was opened with `quantity` items.
    case checkoutOpened(quantity: Int)
    /// The purchase was paid.
    case purchased(quantity: Int, payment: PaymentMethod?)

    /// The event's name.
    public var name: Cart.Name {
        switch self {
        case .quantityIncreased, .quantityDecreased: .add
        case .paymentSelected: .payment
        case .checkoutOpened, .purchased: .checkout
        }
    }

    /// The event's action.
    public var action: Cart.Action {
        switch self {
        case .quantityIncreased, .paymentSelected, .checkoutOpened: .select
        case .quantityDecreased: .other
        case .purchased: .pay
        }
    }

    /// The event's typed data.
    public var userData: UserData {
        switch self {
        case .quantityIncreased(let quantity), .quantityDecreased(let quantity), .checkoutOpened(let quantity):
            ["quantity": .int(quantity)]
        case .paymentSelected(let method):
            ["cardType": .string(method.rawValue)]
        case .purchased(let quantity, let payment):
            if let payment {
                ["quantity": .int(quantity), "cardType": .string(payment.rawValue)]
            } else {
                ["quantity": .int(quantity)]
            }
        }
    }
}
