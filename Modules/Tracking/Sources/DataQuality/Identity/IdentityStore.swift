import Foundation

/// Durable string values by key: where identifiers, the session and privacy choices live.
///
/// `FileIdentityStore` keeps them in a JSON file; an adapter over the Dispatcher's metadata
/// table works too (three methods, no key listing needed). Implementations are thread-safe.
public protocol IdentityStore: Sendable {
    /// The value stored under `key`, or `nil`.
    func value(forKey key: String) -> String?
    /// Stores `value` under `key` durably.
    func setValue(_ value: String, forKey key: String) throws
    /// Removes the value under `key`, if any.
    func removeValue(forKey key: String) throws
}
