/// One event of a feature, as a value: the way a feature makes wrong name/action pairs
/// impossible to write (a compile-time check).
///
/// A feature lists its valid events as the cases of an enum, and sends those:
///
/// ```swift
/// enum CartEvent: FeatureEvent {
///     typealias Feature = Cart
///     case purchase(quantity: Int)
///     var name: Cart.Name { .checkout }
///     var action: Cart.Action { .pay }
///     var userData: UserData {
///         switch self { case .purchase(let quantity): ["quantity": .int(quantity)] }
///     }
/// }
/// reporter.send(CartEvent.purchase(quantity: 2))
/// ```
public protocol FeatureEvent: Sendable {
    /// The feature this event belongs to.
    associatedtype Feature: EventType
    /// The event's name.
    var name: Feature.Name { get }
    /// The event's action.
    var action: Feature.Action { get }
    /// The event's data. Defaults to empty.
    var userData: UserData { get }
}

extension FeatureEvent {
    /// No data.
    public var userData: UserData { [:] }
}
