import Foundation

/// The locked, persisted home of the session state: hydration asks it for each event's session.
///
/// The state is saved through an ``IdentityStore`` when a session starts, on every lifecycle
/// transition, and otherwise at most every ``persistInterval`` seconds of event time, so a
/// restarted process continues the session (or rolls over if it expired meanwhile). After a
/// crash, the event index may repeat the few indexes since the last save.
public final class SessionTracker: @unchecked Sendable {
    /// The key the state is saved under.
    static let storeKey = "session.state"

    // Safe: `state` and `lastSaved` are only touched while holding `lock`.
    private let lock = NSLock()
    private var state: SessionState
    private var lastSaved: Date?
    private let store: any IdentityStore
    private let diagnostics: Diagnostics?
    /// Seconds of event time between saves of an ongoing session.
    public let persistInterval: TimeInterval

    /// Restores the session saved in `store`, or starts with none.
    /// - Parameters:
    ///   - store: where the session persists.
    ///   - foregroundTimeout: seconds of inactivity in the foreground that end a session.
    ///   - backgroundTimeout: seconds of inactivity in the background that end a session.
    ///   - persistInterval: seconds of event time between saves of an ongoing session.
    ///   - diagnostics: where save failures are reported.
    public init(
        store: any IdentityStore,
        foregroundTimeout: TimeInterval = 1800,
        backgroundTimeout: TimeInterval = 1800,
        persistInterval: TimeInterval = 5,
        diagnostics: Diagnostics? = nil
    ) {
        self.store = store
        self.diagnostics = diagnostics
        self.persistInterval = persistInterval
        var restored = store.value(forKey: Self.storeKey)
            .flatMap { try? JSONDecoder().decode(SessionState.self, from: Data($0.utf8)) }
            ?? SessionState()
        restored.foregroundTimeout = foregroundTimeout
        restored.backgroundTimeout = backgroundTimeout
        state = restored
    }

    /// The current state.
    var current: SessionState { lock.withLock { state } }

    /// Accounts for an event and returns its session.
    func nextEvent(at date: Date, id: UUID) -> SessionSnapshot {
        lock.withLock {
            let snapshot = state.nextEvent(at: date, id: id)
            if snapshot.isNewSession || lastSaved.map({ date.timeIntervalSince($0) >= persistInterval || date < $0 }) ?? true {
                save(at: date)
            }
            return snapshot
        }
    }

    /// The app went to the background.
    public func didEnterBackground(at date: Date = Date()) {
        lock.withLock {
            state.didEnterBackground(at: date)
            save(at: date)
        }
    }

    /// The app is coming to the foreground.
    public func willEnterForeground(at date: Date = Date()) {
        lock.withLock {
            state.willEnterForeground(at: date)
            save(at: date)
        }
    }

    /// Forgets the session, in memory and in the store; the next event starts session 1.
    public func purge() {
        lock.withLock {
            state = SessionState(foregroundTimeout: state.foregroundTimeout, backgroundTimeout: state.backgroundTimeout)
            lastSaved = nil
            do {
                try store.removeValue(forKey: Self.storeKey)
            } catch {
                diagnostics?.record(.storage, code: "session_purge_failed", message: String(describing: error))
            }
        }
    }

    private func save(at date: Date) {
        do {
            let data = try JSONEncoder().encode(state)
            try store.setValue(String(decoding: data, as: UTF8.self), forKey: Self.storeKey)
            lastSaved = date
        } catch {
            diagnostics?.record(.storage, code: "session_write_failed", message: String(describing: error))
        }
    }
}
