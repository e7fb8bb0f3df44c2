import Foundation

/// The identifiers every event carries (Snowplow v2 naming in brackets):
///
/// - **installation id** (`domain_userid` / `client_session.userId`): created once, persisted,
///   survives restarts, gone after ``purge()`` (a new one is made on next use).
/// - **user id** (`uid`): set by ``logIn(userID:)``, cleared by ``logOut()``, persisted.
/// - **instance id**: new for every ``Identity`` made, that is, per process start.
///
/// Thread-safe. Persists through an ``IdentityStore``; a failed write is reported to
/// ``Diagnostics`` and the value is still used in memory.
public final class Identity: @unchecked Sendable {
    /// The keys this class uses in the ``IdentityStore``.
    enum Key {
        /// The installation id.
        static let installationID = "identity.installationId"
        /// The logged-in user's id.
        static let userID = "identity.userId"
    }

    // Safe: `cachedInstallationID` and `cachedUserID` are only touched while holding `lock`.
    private let lock = NSLock()
    private let store: any IdentityStore
    private let diagnostics: Diagnostics?
    private var cachedInstallationID: UUID?
    private var cachedUserID: String?
    /// This process's instance id.
    public let instanceID: UUID

    /// Creates the identity over `store`, reading what it holds.
    /// - Parameters:
    ///   - store: where identifiers persist.
    ///   - diagnostics: where write failures are reported.
    ///   - instanceID: this process's id; new by default.
    public init(store: any IdentityStore, diagnostics: Diagnostics? = nil, instanceID: UUID = UUID()) {
        self.store = store
        self.diagnostics = diagnostics
        self.instanceID = instanceID
        cachedInstallationID = store.value(forKey: Key.installationID).flatMap(UUID.init(uuidString:))
        cachedUserID = store.value(forKey: Key.userID)
    }

    /// The installation id, created and persisted on first use.
    public var installationID: UUID { lock.withLock { currentInstallationID() } }

    /// The installation id (created on first use, like ``installationID``) and the logged-in
    /// user's id, read together under one lock.
    var identifiers: (installationID: UUID, userID: String?) {
        lock.withLock { (currentInstallationID(), cachedUserID) }
    }

    /// The logged-in user's id, or `nil` when logged out.
    public var userID: String? { lock.withLock { cachedUserID } }

    /// Sets the user id (on login) and persists it.
    public func logIn(userID: String) {
        lock.withLock {
            cachedUserID = userID
            save(userID, forKey: Key.userID)
        }
    }

    /// Clears the user id (on logout).
    public func logOut() {
        lock.withLock {
            cachedUserID = nil
            remove(Key.userID)
        }
    }

    /// Forgets the installation id and user id, in memory and in the store.
    public func purge() {
        lock.withLock {
            cachedInstallationID = nil
            cachedUserID = nil
            for key in [Key.installationID, Key.userID] {
                do {
                    try store.removeValue(forKey: key)
                } catch {
                    diagnostics?.record(.storage, code: "identity_purge_failed", message: String(describing: error))
                }
            }
        }
    }

    /// The installation id, created and persisted if there is none. Call while holding `lock`.
    private func currentInstallationID() -> UUID {
        if let cachedInstallationID { return cachedInstallationID }
        let created = UUID()
        cachedInstallationID = created
        save(created.uuidString.lowercased(), forKey: Key.installationID)
        return created
    }

    private func save(_ value: String, forKey key: String) {
        do {
            try store.setValue(value, forKey: key)
        } catch {
            diagnostics?.record(.storage, code: "identity_write_failed", message: String(describing: error))
        }
    }

    private func remove(_ key: String) {
        do {
            try store.removeValue(forKey: key)
        } catch {
            diagnostics?.record(.storage, code: "identity_write_failed", message: String(describing: error))
        }
    }
}
