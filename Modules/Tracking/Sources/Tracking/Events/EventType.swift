/// A feature's events: one conforming type per feature module.
///
/// A feature declares its own `Name` and `Action` (string-backed enums in practice) and,
/// optionally, which name/action pairs are valid. Nothing shared needs to change.
///
/// ```swift
/// enum Cart: EventType {
///     enum Name: String, Sendable { case payment, add, checkout }
///     enum Action: String, Sendable { case select, pay, other }
///     static let category = "Cart"
/// }
/// ```
public protocol EventType {
    /// What happened, for example `checkout`.
    associatedtype Name: RawRepresentable & Sendable where Name.RawValue == String
    /// How it happened, for example `pay`.
    associatedtype Action: RawRepresentable & Sendable where Action.RawValue == String

    /// The category every event of this type carries. Defaults to the type's own name.
    ///
    /// Categories starting with `$` are reserved for identify and screen calls (``EventKind``):
    /// a reporter sends such a category without its leading `$`s, flagged
    /// ``EventFlag/reservedCategory(_:)``.
    static var category: String { get }

    /// Whether `name` may be sent with `action`. Defaults to `true` for every pair.
    ///
    /// A pair this returns `false` for is still delivered, carrying ``EventFlag/invalidPair(name:action:)``,
    /// and is reported to ``EventReporterPlugin`` stages and to the reporter's violation handler.
    static func isValid(name: Name, action: Action) -> Bool
}

extension EventType {
    /// The type's own name, for example `"Wishlist"`.
    public static var category: String { String(describing: Self.self) }

    /// Every pair is valid unless the feature says otherwise.
    public static func isValid(name: Name, action: Action) -> Bool { true }
}
