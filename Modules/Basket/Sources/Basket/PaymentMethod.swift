/// A way to pay for the basket; the raw value is what events carry as `cardType`.
public enum PaymentMethod: String, Sendable, CaseIterable {
    /// A Mastercard card.
    case mastercard = "Mastercard"
    /// A Visa card.
    case visa = "Visa"
    /// A PayPal account.
    case payPal = "PayPal"
}
