import Tracking

/// The basket's events, in the category `"Cart"`.
///
/// Valid pairs (anything else is flagged `invalid_pair` and reported):
///
/// | name       | actions           | when                                        |
/// |------------|-------------------|---------------------------------------------|
/// | `payment`  | `select`          | a payment method is chosen                  |
/// | `add`      | `select`, `other` | the quantity goes up (`select`) or down (`other`) |
/// | `checkout` | `select`, `pay`   | checkout is opened (`select`), the purchase is paid (`pay`) |
public enum Cart: EventType {
    /// What happened in the basket.
    public enum Name: String, Sendable, CaseIterable {
        /// The payment method.
        case payment
        /// The quantity of the item in the basket.
        case add
        /// The checkout.
        case checkout
    }

    /// How it happened.
    public enum Action: String, Sendable, CaseIterable {
        /// The user chose or increased something.
        case select
        /// The user paid.
        case pay
        /// Any other change, for example a decrease.
        case other
    }

    /// `"Cart"`, not the type's name.
    public static let category = "Cart"

    /// Whether `name` may be sent with `action`. A switch: it runs on every send, so it must be cheap.
    public static func isValid(name: Name, action: Action) -> Bool {
        switch (name, action) {
        case (.payment, .select), (.add, .select), (.add, .other), (.checkout, .select), (.checkout, .pay): true
        default: false
        }
    }
}
