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
    public var userData: UserData
    /// Global context added by hydration stages (app, device, session, identifiers).
    public var context: UserData
    /// What validation and quality stages noticed about the event. Flags never drop an event.
    public var flags: [EventFlag]

    /// Creates an event.
    public init(
        id: UUID = EventID.make(),
        timestamp: Date = Date(),
        category: String,
        name: String,
        action: String,
        userData: UserData = [:],
        context: UserData = [:],
        flags: [EventFlag] = []
    ) {
        self.id = id
        self.timestamp = timestamp
        self.category = category
        self.name = name
        self.action = action
        self.userData = userData
        self.context = context
        self.flags = flags
    }

    /// Adds `flag` unless an equal flag is already there.
    public mutating func flag(_ flag: EventFlag) {
        if !flags.contains(flag) { flags.append(flag) }
    }

    /// Whether the event carries a flag with this code.
    public func hasFlag(_ code: String) -> Bool { flags.contains { $0.code == code } }

    /// The kind of call this event records, derived from ``category`` (see ``EventKind``).
    public var kind: EventKind { EventKind(category: category) }
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
