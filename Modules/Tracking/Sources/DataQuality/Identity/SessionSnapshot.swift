import Foundation
import Tracking

/// The session as one event sees it.
struct SessionSnapshot: Sendable, Equatable, Codable {
    /// The session's id.
    public var sessionID: UUID
    /// The session's 1-based index for this installation.
    public var sessionIndex: Int
    /// The previous session's id, if there was one.
    public var previousSessionID: UUID?
    /// The session's first event.
    public var firstEventID: UUID
    /// When the session's first event happened.
    public var firstEventTimestamp: Date
    /// The event's 1-based index within the session.
    public var eventIndex: Int
    /// Whether this event started the session.
    public var isNewSession: Bool

    /// Creates a snapshot.
    public init(
        sessionID: UUID, sessionIndex: Int, previousSessionID: UUID?, firstEventID: UUID,
        firstEventTimestamp: Date, eventIndex: Int, isNewSession: Bool
    ) {
        self.sessionID = sessionID
        self.sessionIndex = sessionIndex
        self.previousSessionID = previousSessionID
        self.firstEventID = firstEventID
        self.firstEventTimestamp = firstEventTimestamp
        self.eventIndex = eventIndex
        self.isNewSession = isNewSession
    }

    /// The `session` object put into an event's context: ids as lowercase strings, the first
    /// event's time as ISO-8601.
    public var contextValue: UserDataValue {
        var object = sessionMembers
        object["eventIndex"] = .int(eventIndex)
        return .object(object)
    }

    /// The members of ``contextValue`` that every event of the session shares: all but
    /// `eventIndex`.
    var sessionMembers: [String: UserDataValue] {
        var object: [String: UserDataValue] = [
            "id": .string(EventID.text(sessionID)),
            "index": .int(sessionIndex),
            "firstEventId": .string(EventID.text(firstEventID)),
            "firstEventTimestamp": .string(JSONText.iso8601(firstEventTimestamp)),
        ]
        if let previousSessionID { object["previousId"] = .string(EventID.text(previousSessionID)) }
        return object
    }
}
