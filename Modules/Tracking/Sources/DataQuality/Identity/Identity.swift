import Foundation
import Tracking

/// The identifiers every event carries (Snowplow v2 naming in brackets):
///
/// - **installation id** (`domain_userid` / `client_session.userId`): created once, persisted,
///   survives restarts, gone after ``purge()`` (a new one is made on next use).
/// - **user id** (`uid`): set by ``logIn(userID:)``, cleared by ``logOut()``, persisted.
/// - **instance id**: new for every ``Identity`` made, that is, per process start.
///
/// Thread-safe. Persists through an ``IdentityStore``; a failed write is reported to
/// ``Diagnostics`` and the value is still used in memory.
public final class Identity: Sendable {
    /// The keys this class uses in the ``IdentityStore``.
    enum Key {
        /// The installation id.
        static let installationID = "identity.installationId"
        /// The logged-in user's id.
        static let userID = "identity.userId"
    }

    /// The identifiers as last read or written.
    private struct Cached {
        var installationID: UUID?
        var userID: String?
    }

    private let store: any IdentityStore
    private let diagnostics: Diagnostics?
    private let cached: LockedValue<Cached>
    /// Told after each change of the identifiers (see ``onChange(_:)``).
    private let observers = LockedValue<[@Sendable () -> Void]>([])
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
        cached = LockedValue(Cached(installationID: store.value(forKey: Key.installationID).flatMap(UUID.init(uuidString:)),
                                    userID: store.value(forKey: Key.userID)))
    }

    /// The installation id, created and persisted on first use.
    public var installationID: UUID { cached.withLock { currentInstallationID(&$0) } }

    /// The installation id (created on first use, like ``installationID``) and the logged-in
    /// user's id, read together under one lock.
    var identifiers: (installationID: UUID, userID: String?) {
        cached.withLock { (currentInstallationID(&$0), $0.userID) }
    }

    /// The logged-in user's id, or `nil` when logged out.
    public var userID: String? { cached.withLock { $0.userID } }

    /// Sets the user id (on login) and persists it.
    public func logIn(userID: String) {
        cached.withLock {
            $0.userID = userID
            save(userID, forKey: Key.userID)
        }
        tellObservers()
    }

    /// Clears the user id (on logout).
    public func logOut() {
        cached.withLock {
            $0.userID = nil
            remove(Key.userID)
        }
        tellObservers()
    }

    /// Forgets the installation id and user id, in memory and in the store.
    public func purge() {
        cached.withLock {
            $0 = Cached()
            for key in [Key.installationID, Key.userID] {
                do {
                    try store.removeValue(forKey: key)
                } catch {
                    diagnostics?.record(.storage, code: "identity_purge_failed", message: String(describing: error))
                }
            }
        }
        tellObservers()
    }

    /// Calls `action` after every change of the identifiers (log in, log out, purge), before the
    /// call that made it returns: a cache of ``identifiers`` (the hydrator's) forgets them there.
    func onChange(_ action: @escaping @Sendable () -> Void) { observers.withLock { $0.append(action) } }

    private func tellObservers() {
        for action in observers.withLock({ $0 }) { action() }
    }

    /// The installation id, created and persisted if there is none. Called inside `cached`'s lock.
    private func currentInstallationID(_ cached: inout Cached) -> UUID {
        if let known = cached.installationID { return known }
        let created = UUID()
        cached.installationID = created
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
