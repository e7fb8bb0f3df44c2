import Foundation

/// An ``IdentityStore`` in memory: for tests and for apps that must not write identifiers.
final class InMemoryIdentityStore: IdentityStore, @unchecked Sendable {
    // Safe: `values` is only touched while holding `lock`.
    private let lock = NSLock()
    private var values: [String: String]

    /// Creates a store holding `values`.
    public init(_ values: [String: String] = [:]) { self.values = values }

    /// Everything stored, for assertions.
    public var contents: [String: String] { lock.withLock { values } }

    /// The value under `key`.
    public func value(forKey key: String) -> String? { lock.withLock { values[key] } }
    /// Stores `value` under `key`.
    public func setValue(_ value: String, forKey key: String) { lock.withLock { values[key] = value } }
    /// Removes the value under `key`.
    public func removeValue(forKey key: String) { _ = lock.withLock { values.removeValue(forKey: key) } }
    /// Removes every value whose key starts with `prefix`.
    public func removeAll(withPrefix prefix: String) {
        lock.withLock { values = values.filter { !$0.key.hasPrefix(prefix) } }
    }
}
