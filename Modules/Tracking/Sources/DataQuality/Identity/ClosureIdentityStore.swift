/// An ``IdentityStore`` made of three closures: the one-line adapter over another key/value
/// store, for example the Dispatcher's metadata table.
///
/// ```swift
/// let identityStore = ClosureIdentityStore(
///     get: { try? eventStore.metadata($0) },
///     set: { try eventStore.setMetadata($0, $1) },
///     remove: { try eventStore.setMetadata($0, nil) }
/// )
/// ```
public struct ClosureIdentityStore: IdentityStore {
    private let get: @Sendable (String) -> String?
    private let set: @Sendable (String, String) throws -> Void
    private let remove: @Sendable (String) throws -> Void

    /// Creates a store from its three operations.
    /// - Parameters:
    ///   - get: the value for a key, or `nil`.
    ///   - set: stores a value (key, value) durably.
    ///   - remove: removes a key.
    public init(
        get: @escaping @Sendable (String) -> String?,
        set: @escaping @Sendable (String, String) throws -> Void,
        remove: @escaping @Sendable (String) throws -> Void
    ) {
        self.get = get
        self.set = set
        self.remove = remove
    }

    /// Runs `get`.
    public func value(forKey key: String) -> String? { get(key) }
    /// Runs `set`.
    public func setValue(_ value: String, forKey key: String) throws { try set(key, value) }
    /// Runs `remove`.
    public func removeValue(forKey key: String) throws { try remove(key) }
}
