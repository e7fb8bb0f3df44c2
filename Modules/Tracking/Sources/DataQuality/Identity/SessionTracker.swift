import Foundation
@_spi(Clocks) import Tracking

/// The locked, persisted home of the session state: hydration asks it for each event's session.
///
/// The state is saved through an ``IdentityStore`` when a session starts, on every lifecycle
/// transition, and otherwise at most every ``persistInterval`` seconds of event time, so a
/// restarted process continues the session (or rolls over if it expired meanwhile). ``persist()``
/// saves what is left unsaved (a clean close calls it, and so does releasing the tracker), so the
/// event index continues after a clean restart; after a crash it may repeat the few indexes
/// since the last save.
///
/// Idle time is measured on a clock that setting the date does not step: each
/// moment is placed on it by its distance from the wall clock's present. For an event a
/// reporter made, that clock's present is worked out from the reporter's wall-clock reading
/// and the coarse clock (`SteadyEstimate`), which is read at about a tenth of the cost, and
/// the steady clock itself is read at most once a second, and whenever the device slept or the
/// date was set.
public final class SessionTracker: Sendable {
    /// The key the state is saved under.
    static let storeKey = "session.state"

    /// The session and when it was last saved.
    private struct Saved {
        var state: SessionState
        var lastSaved: Date?
        var unsaved = false
        /// The steady clock's present from the coarse clock, between readings of it.
        var estimate = SteadyEstimate()
    }

    private let saved: LockedValue<Saved>
    private let wallClock: @Sendable () -> Date
    private let steadyClock: @Sendable () -> TimeInterval
    /// The coarse clock ``SteadyEstimate`` works from, when the steady clock is the system's;
    /// `nil` reads the steady clock for every event.
    private let coarseClock: (@Sendable () -> TimeInterval)?
    /// Whether `wallClock` is the system's, so a reporter's reading of it can stand in for it.
    private let wallClockIsSystem: Bool
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
    public convenience init(
        store: any IdentityStore,
        foregroundTimeout: TimeInterval = 1800,
        backgroundTimeout: TimeInterval = 1800,
        persistInterval: TimeInterval = 5,
        diagnostics: Diagnostics? = nil
    ) {
        self.init(store: store, foregroundTimeout: foregroundTimeout, backgroundTimeout: backgroundTimeout,
                  persistInterval: persistInterval, diagnostics: diagnostics, wallClock: { Date() },
                  steadyClock: { SteadyClock.secondsSinceBoot() }, wallClockIsSystem: true,
                  coarseClock: { CoarseClock.seconds() })
    }

    /// Restores the session saved in `store`, with the wall clock and the forward-only clock
    /// given; `wallClockIsSystem` when `wallClock` reads `Date()` (a reporter's reading of it
    /// then stands in for it, see ``nextEvent(at:id:wallClockReading:)``); `coarseClock`, a
    /// monotonic clock that does not count sleep (``Tracking/CoarseClock``), for working out the
    /// steady clock's present from a reporter's reading between reads of it (``SteadyEstimate``).
    init(
        store: any IdentityStore, foregroundTimeout: TimeInterval, backgroundTimeout: TimeInterval,
        persistInterval: TimeInterval, diagnostics: Diagnostics?,
        wallClock: @escaping @Sendable () -> Date, steadyClock: @escaping @Sendable () -> TimeInterval,
        wallClockIsSystem: Bool = false, coarseClock: (@Sendable () -> TimeInterval)? = nil
    ) {
        self.wallClock = wallClock
        self.steadyClock = steadyClock
        self.coarseClock = coarseClock
        self.wallClockIsSystem = wallClockIsSystem
        self.store = store
        self.diagnostics = diagnostics
        self.persistInterval = persistInterval
        var restored = store.value(forKey: Self.storeKey)
            .flatMap { try? JSONDecoder().decode(SessionState.self, from: Data($0.utf8)) }
            ?? SessionState()
        restored.foregroundTimeout = foregroundTimeout
        restored.backgroundTimeout = backgroundTimeout
        saved = LockedValue(Saved(state: restored))
    }

    deinit {
        persist()
    }

    /// The current state.
    var current: SessionState { saved.withLock { $0.state } }

    /// `date` on the forward-only clock: its present reading, moved by `date`'s distance from
    /// the wall clock's present.
    private func steady(_ date: Date) -> TimeInterval {
        steadyClock() + date.timeIntervalSince(wallClock())
    }

    /// Accounts for an event and returns its session.
    /// - Parameter wallClockReading: a reading of the system's wall clock just taken (a
    ///   reporter's, ``Tracking/TrackedEvent/clockReading``): with the system's wall clock, it is
    ///   used as the present, off by the microseconds since it was taken, and the wall clock is
    ///   not read again.
    ///   With a coarse clock, the steady clock's present is worked out from the reading (see
    ///   ``SteadyEstimate``), under the lock that keeps the estimate.
    func nextEvent(at date: Date, id: UUID, wallClockReading: Date? = nil) -> SessionSnapshot {
        let reading = wallClockIsSystem ? wallClockReading : nil
        // Read before the lock, unless the estimate (kept under it) stands in for the steady clock.
        let measured: TimeInterval? = if let reading {
            coarseClock == nil ? steadyClock() + date.timeIntervalSince(reading) : nil
        } else {
            steady(date)
        }
        let persistInterval = self.persistInterval
        return saved.withLock { saved in
            var steady = measured ?? 0
            if measured == nil, let reading, let coarseClock {
                steady = Self.present(&saved.estimate, wall: reading, coarse: coarseClock(), steadyClock: steadyClock)
                    + date.timeIntervalSince(reading)
            }
            let snapshot = saved.state.nextEvent(at: date, steady: steady, id: id)
            saved.unsaved = true
            if snapshot.isNewSession || saved.lastSaved.map({ date.timeIntervalSince($0) >= persistInterval || date < $0 }) ?? true {
                save(&saved, at: date)
            }
            return snapshot
        }
    }

    /// The steady clock's present at the wall clock's `wall` and the coarse clock's `coarse`,
    /// read together: estimated, or read and the estimate calibrated.
    private static func present(
        _ estimate: inout SteadyEstimate, wall: Date, coarse: TimeInterval, steadyClock: () -> TimeInterval
    ) -> TimeInterval {
        let wallSeconds = wall.timeIntervalSinceReferenceDate
        if let estimated = estimate.steady(wall: wallSeconds, coarse: coarse) { return estimated }
        let steady = steadyClock()
        estimate.calibrate(wall: wallSeconds, coarse: coarse, steady: steady)
        return steady
    }

    /// The app went to the background.
    public func didEnterBackground(at date: Date = Date()) {
        let steady = steady(date)
        saved.withLock { saved in
            saved.state.didEnterBackground(at: date, steady: steady)
            save(&saved, at: date)
        }
    }

    /// The app is coming to the foreground.
    public func willEnterForeground(at date: Date = Date()) {
        let steady = steady(date)
        saved.withLock { saved in
            saved.state.willEnterForeground(at: date, steady: steady)
            save(&saved, at: date)
        }
    }

    /// Saves the state if events changed it since the last save: called on a clean close, so
    /// that a restart continues the event index.
    public func persist() {
        saved.withLock { saved in
            if saved.unsaved { save(&saved, at: wallClock()) }
        }
    }

    /// Forgets the session, in memory and in the store; the next event starts session 1.
    public func purge() {
        saved.withLock { saved in
            saved = Saved(state: SessionState(foregroundTimeout: saved.state.foregroundTimeout,
                                              backgroundTimeout: saved.state.backgroundTimeout))
            do {
                try store.removeValue(forKey: Self.storeKey)
            } catch {
                diagnostics?.record(.storage, code: "session_purge_failed", message: String(describing: error))
            }
        }
    }

    /// Writes `saved`'s state to the store. Called inside `saved`'s lock.
    private func save(_ saved: inout Saved, at date: Date) {
        do {
            let data = try JSONEncoder().encode(saved.state)
            try store.setValue(String(decoding: data, as: UTF8.self), forKey: Self.storeKey)
            saved.lastSaved = date
            saved.unsaved = false
        } catch {
            diagnostics?.record(.storage, code: "session_write_failed", message: String(describing: error))
        }
    }
}
