import Foundation
import Tracking

/// An ``IdentityStore`` in memory: for tests and for apps that must not write identifiers.
final class InMemoryIdentityStore: IdentityStore {
    private let values: LockedValue<[String: String]>

    /// Creates a store holding `values`.
    public init(_ values: [String: String] = [:]) { self.values = LockedValue(values) }

    /// Everything stored, for assertions.
    public var contents: [String: String] { values.withLock { $0 } }

    /// The value under `key`.
    public func value(forKey key: String) -> String? { values.withLock { $0[key] } }
    /// Stores `value` under `key`.
    public func setValue(_ value: String, forKey key: String) { values.withLock { $0[key] = value } }
    /// Removes the value under `key`.
    public func removeValue(forKey key: String) { _ = values.withLock { $0.removeValue(forKey: key) } }
    /// Removes every value whose key starts with `prefix`.
    public func removeAll(withPrefix prefix: String) {
        values.withLock { values in values = values.filter { !$0.key.hasPrefix(prefix) } }
    }
}
