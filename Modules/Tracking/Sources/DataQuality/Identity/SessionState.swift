import Foundation

/// A session as a pure value, with time passed in: what ``SessionTracker`` keeps and persists.
///
/// **Expiry rule.** A session expires when the time since its last event is *greater than or
/// equal to* the timeout: an event exactly `foregroundTimeout` seconds after the previous one
/// starts a new session; one a millisecond earlier does not. The timeout used is the one of the
/// state the app is in when the next event comes (foreground or background). The lifecycle
/// calls also check expiry at the moment of the transition, with the timeout of the state being
/// left, so that a long background period followed by a quick foreground event still rolls over
/// under the background timeout. Lifecycle transitions are not activity: only events are.
///
/// **Idle time and clock steps.** Each moment may come with its reading of a clock that only
/// moves forward with real time (``SessionTracker`` passes it): between two such readings the idle
/// time is their difference, so a wall clock set forward or back neither ends, freezes nor
/// stretches the session. Without both readings (the first event after a restart), the idle time
/// is the wall clock's distance from the last event in either direction: a last event stamped
/// by a clock that was ahead does not keep the session open until the clock catches up.
///
/// Indexes are 1-based, like the Snowplow trackers: the first session has index 1, the first
/// event of a session has event index 1.
struct SessionState: Sendable, Equatable, Codable {
    /// Inactivity, in seconds, after which a session ends while the app is in the foreground.
    public var foregroundTimeout: TimeInterval
    /// Inactivity, in seconds, after which a session ends while the app is in the background.
    public var backgroundTimeout: TimeInterval
    /// The current session, or `nil` before the first event.
    public private(set) var sessionID: UUID?
    /// How many sessions this installation has had, counting the current one.
    public private(set) var sessionIndex: Int
    /// The session before the current one.
    public private(set) var previousSessionID: UUID?
    /// The id of the current session's first event.
    public private(set) var firstEventID: UUID?
    /// When the current session's first event happened.
    public private(set) var firstEventTimestamp: Date?
    /// The index of the latest event in the current session.
    public private(set) var eventIndex: Int
    /// When the latest event happened.
    public private(set) var lastActivity: Date?
    /// Whether the app is in the background.
    public private(set) var isInBackground: Bool
    /// Whether a lifecycle transition found the session already expired.
    public private(set) var expiredAtTransition: Bool
    /// The forward-only clock's reading at the latest event, when it had one; never persisted,
    /// since it means nothing to another process.
    public private(set) var lastActivitySteady: TimeInterval?

    private enum CodingKeys: String, CodingKey {
        case foregroundTimeout, backgroundTimeout, sessionID, sessionIndex, previousSessionID, firstEventID
        case firstEventTimestamp, eventIndex, lastActivity, isInBackground, expiredAtTransition
    }

    /// A state before any session, with the given timeouts (30 minutes each by default).
    public init(foregroundTimeout: TimeInterval = 1800, backgroundTimeout: TimeInterval = 1800) {
        self.foregroundTimeout = foregroundTimeout
        self.backgroundTimeout = backgroundTimeout
        sessionID = nil
        sessionIndex = 0
        previousSessionID = nil
        firstEventID = nil
        firstEventTimestamp = nil
        eventIndex = 0
        lastActivity = nil
        isInBackground = false
        expiredAtTransition = false
        lastActivitySteady = nil
    }

    /// The seconds since the latest event at `now` (`steady`: the forward-only clock's reading
    /// then, if known), or nil before any event.
    public func idleTime(at now: Date, steady: TimeInterval? = nil) -> TimeInterval? {
        guard let lastActivity else { return nil }
        if let steady, let lastActivitySteady { return max(0, steady - lastActivitySteady) }
        return abs(now.timeIntervalSince(lastActivity))
    }

    /// Whether an event at `now` (`steady`: the forward-only clock's reading) would start a new
    /// session.
    public func isExpired(at now: Date, steady: TimeInterval? = nil) -> Bool {
        guard sessionID != nil, let idle = idleTime(at: now, steady: steady) else { return true }
        if expiredAtTransition { return true }
        let timeout = isInBackground ? backgroundTimeout : foregroundTimeout
        return idle >= timeout
    }

    /// The app went to the background at `now` (`steady`: the forward-only clock's reading).
    public mutating func didEnterBackground(at now: Date, steady: TimeInterval? = nil) {
        guard !isInBackground else { return }
        if sessionID != nil, isExpired(at: now, steady: steady) { expiredAtTransition = true }
        isInBackground = true
    }

    /// The app is coming to the foreground at `now` (`steady`: the forward-only clock's reading).
    public mutating func willEnterForeground(at now: Date, steady: TimeInterval? = nil) {
        guard isInBackground else { return }
        if sessionID != nil, isExpired(at: now, steady: steady) { expiredAtTransition = true }
        isInBackground = false
    }

    /// Accounts for an event at `now` with `id`, rolling the session over first if it expired.
    /// - Parameters:
    ///   - now: the event's time.
    ///   - steady: the forward-only clock's reading at `now`, if known.
    ///   - id: the event's id (becomes ``firstEventID`` of a new session).
    ///   - newSessionID: the id a new session gets; random by default.
    /// - Returns: the session as the event sees it.
    public mutating func nextEvent(
        at now: Date, steady: TimeInterval? = nil, id: UUID, newSessionID: @autoclosure () -> UUID = UUID()
    ) -> SessionSnapshot {
        let isNew = isExpired(at: now, steady: steady)
        // A random id costs a system call: made only when a session starts.
        let startedID = isNew ? newSessionID() : nil
        if let startedID {
            previousSessionID = sessionID
            sessionID = startedID
            sessionIndex += 1
            firstEventID = id
            firstEventTimestamp = now
            eventIndex = 0
            expiredAtTransition = false
        }
        eventIndex += 1
        // The clock's time, even when it stepped back: idle time counts from here.
        lastActivity = now
        lastActivitySteady = steady
        return SessionSnapshot(
            sessionID: sessionID ?? startedID ?? newSessionID(),
            sessionIndex: sessionIndex,
            previousSessionID: previousSessionID,
            firstEventID: firstEventID ?? id,
            firstEventTimestamp: firstEventTimestamp ?? now,
            eventIndex: eventIndex,
            isNewSession: isNew
        )
    }
}
