import Foundation

/// The type-erased record of one event: what every plugin sees, stores and delivers.
public struct TrackedEvent: Sendable, Equatable, Hashable, Codable {
    /// A unique id, time-ordered (UUID version 7), used as the delivery idempotency key.
    public var id: UUID
    /// When the event was sent.
    public var timestamp: Date
    /// The feature's category, for example `"Cart"`.
    public var category: String
    /// The event's name, for example `"checkout"`.
    public var name: String
    /// The event's action, for example `"pay"`.
    public var action: String
    /// The data the feature attached.
    public var userData: UserData {
        // A digest describes the userData it was taken of: any change drops it.
        didSet { userDataDigest = nil }
    }
    /// This event's own context: what a stage added for this event alone (for example the
    /// session's event index). The full context is ``context``.
    public var eventContext: UserData
    /// Context this event shares with others (app, OS, device, library, ids, session), set by
    /// a hydration stage once per process or session and referred to, not copied.
    public var sharedContext: SharedContext?
    /// What validation and quality stages noticed about the event. Flags never drop an event.
    public var flags: [EventFlag]
    /// The wall-clock reading (`Date()`) an ``EventReporter`` took for the id and ``timestamp``
    /// while making this event, `nil` otherwise: a stage that needs the wall clock's present for
    /// this event uses it instead of reading the clock again. Not part of the event's value
    /// (equality, hashing, coding).
    package var clockReading: Date?
    /// What a stage's walk of ``userData`` found (``UserDataDigest``), for later stages; `nil`
    /// until one walks it, and again whenever ``userData`` changes. Not part of the event's value.
    package var userDataDigest: UserDataDigest?

    /// Global context (app, device, session, identifiers): the ``sharedContext`` with the
    /// ``eventContext`` on top (``SharedContext/merged(with:)``).
    ///
    /// Reading it merges the two; setting it replaces both (the event then shares nothing). A
    /// stage on the hot path writes ``eventContext`` and ``sharedContext`` instead.
    public var context: UserData {
        get { sharedContext.map { $0.merged(with: eventContext) } ?? eventContext }
        set {
            eventContext = newValue
            sharedContext = nil
        }
    }

    /// Whether the event has no context at all, shared or its own, without merging anything.
    public var hasNoContext: Bool { eventContext.isEmpty && (sharedContext?.values.isEmpty ?? true) }

    /// Adds `flag` unless an equal flag is already there.
    public mutating func flag(_ flag: EventFlag) {
        if !flags.contains(flag) { flags.append(flag) }
    }

    /// Whether the event carries a flag with this code.
    public func hasFlag(_ code: String) -> Bool { flags.contains { $0.code == code } }

    /// The kind of call this event records, derived from ``category`` (see ``EventKind``).
    public var kind: EventKind { EventKind(category: category) }
}

// The initializers are declared here, outside the type's body, so that the compiler makes the
// memberwise one, which they call: it builds the value from its fields in place, where an
// initializer that assigns field by field builds it in a temporary, then copies it out and
// destroys the temporary (every field retained and released once more per event).
extension TrackedEvent {
    /// Creates an event.
    public init(
        id: UUID = EventID.make(),
        timestamp: Date = Date(),
        category: String,
        name: String,
        action: String,
        userData: UserData = [:],
        context: UserData = [:],
        sharedContext: SharedContext? = nil,
        flags: [EventFlag] = []
    ) {
        self.init(id: id, timestamp: timestamp, category: category, name: name, action: action, userData: userData,
                  eventContext: context, sharedContext: sharedContext, flags: flags)
    }

    /// A new event of a reporter's: no context, no flag, its id and timestamp from the wall
    /// clock's `reading`, kept as ``clockReading``. Every field is set from its argument, with
    /// no default to build.
    init(id: UUID, reading: Date, category: String, name: String, action: String, userData: UserData) {
        self.init(id: id, timestamp: reading, category: category, name: name, action: action, userData: userData,
                  eventContext: UserData(), sharedContext: nil, flags: [], clockReading: reading)
    }
}

extension TrackedEvent: CustomStringConvertible {
    /// `Category/name/action {userData}`: one readable line.
    public var description: String {
        var line = "\(category)/\(name)/\(action)"
        if !userData.isEmpty { line += " " + JSONText.encode(.object(userData)) }
        if !flags.isEmpty { line += " [" + flags.map(\.description).joined(separator: ", ") + "]" }
        return line
    }
}

extension TrackedEvent {
    private enum CodingKeys: String, CodingKey {
        case id, timestamp, category, name, action, userData, context, flags
    }

    /// Decodes an event; the context read becomes its own ``eventContext``.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            id: try container.decode(UUID.self, forKey: .id),
            timestamp: try container.decode(Date.self, forKey: .timestamp),
            category: try container.decode(String.self, forKey: .category),
            name: try container.decode(String.self, forKey: .name),
            action: try container.decode(String.self, forKey: .action),
            userData: try container.decode(UserData.self, forKey: .userData),
            context: try container.decode(UserData.self, forKey: .context),
            flags: try container.decode([EventFlag].self, forKey: .flags))
    }

    /// Encodes the event with its full ``context``.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id, forKey: .id)
        try container.encode(timestamp, forKey: .timestamp)
        try container.encode(category, forKey: .category)
        try container.encode(name, forKey: .name)
        try container.encode(action, forKey: .action)
        try container.encode(userData, forKey: .userData)
        try container.encode(context, forKey: .context)
        try container.encode(flags, forKey: .flags)
    }

    /// Equal when every field is, comparing the full ``context`` however it is split.
    public static func == (lhs: TrackedEvent, rhs: TrackedEvent) -> Bool {
        lhs.id == rhs.id && lhs.timestamp == rhs.timestamp && lhs.category == rhs.category
            && lhs.name == rhs.name && lhs.action == rhs.action && lhs.userData == rhs.userData
            && lhs.flags == rhs.flags && lhs.context == rhs.context
    }

    /// Hashes every field, the full ``context`` included.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(id)
        hasher.combine(timestamp)
        hasher.combine(category)
        hasher.combine(name)
        hasher.combine(action)
        hasher.combine(userData)
        hasher.combine(context)
        hasher.combine(flags)
    }
}
