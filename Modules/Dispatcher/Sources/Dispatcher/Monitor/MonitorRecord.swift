import Foundation
import Tracking

/// One event as the monitor shows and exports it: its fields, status and delivery timeline.
public struct MonitorRecord: Sendable, Equatable, Codable {
    /// The event id.
    public var id: UUID
    /// The category.
    public var category: String
    /// The name.
    public var name: String
    /// The action.
    public var action: String
    /// `pending`, `in_flight`, `held` (waiting for consent), `rejected` or `delivered`.
    public var status: EventStatus
    /// Delivery attempts made.
    public var attempts: Int
    /// When it was persisted, ISO-8601.
    public var createdAt: String
    /// When it was sent, ISO-8601.
    public var timestamp: String
    /// The earliest next attempt, ISO-8601, when waiting to retry.
    public var nextAttemptAt: String?
    /// The last error or the rejection reason.
    public var lastError: String?
    /// The quality flags, as `code` or `code(detail)`.
    public var flags: [String]
    /// The hydrated context.
    public var context: UserData
    /// The feature's data.
    public var userData: UserData
    /// This session's delivery timeline of the event, when known.
    public var timeline: [TimelineStep]?
    /// `true` when the event is still only in the journal (durable, pending, not yet in the
    /// store's SQLite file); absent otherwise.
    public var inJournal: Bool?

    /// Builds a record from a store row.
    init(_ stored: StoredEvent, timeline: [TimelineStep]? = nil) {
        let decoded = try? stored.event.decoded()
        id = stored.event.id
        category = stored.event.category
        name = stored.event.name
        action = stored.event.action
        status = stored.status
        attempts = stored.attempts
        createdAt = JSONText.iso8601(stored.createdAt)
        timestamp = JSONText.iso8601(stored.event.timestamp)
        nextAttemptAt = stored.nextAttemptAt.map(JSONText.iso8601)
        lastError = stored.lastError
        flags = decoded?.flags.map(\.description) ?? stored.event.flagCodes
        context = decoded?.context ?? [:]
        userData = decoded?.userData ?? [:]
        self.timeline = timeline?.isEmpty == false ? timeline : nil
        inJournal = stored.isInJournal ? true : nil
    }

    /// Encodes every field, the id in lowercase like everywhere else (`EventID.text(_:)`);
    /// decoding accepts either case.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(EventID.text(id), forKey: .id)
        try container.encode(category, forKey: .category)
        try container.encode(name, forKey: .name)
        try container.encode(action, forKey: .action)
        try container.encode(status, forKey: .status)
        try container.encode(attempts, forKey: .attempts)
        try container.encode(createdAt, forKey: .createdAt)
        try container.encode(timestamp, forKey: .timestamp)
        try container.encodeIfPresent(nextAttemptAt, forKey: .nextAttemptAt)
        try container.encodeIfPresent(lastError, forKey: .lastError)
        try container.encode(flags, forKey: .flags)
        try container.encode(context, forKey: .context)
        try container.encode(userData, forKey: .userData)
        try container.encodeIfPresent(timeline, forKey: .timeline)
    }
}
