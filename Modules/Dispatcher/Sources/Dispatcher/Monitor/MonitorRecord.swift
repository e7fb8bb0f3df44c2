import Foundation
import Tracking
import TrackingJSON

/// One event as the monitor shows and exports it: its fields, status and journey.
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
    /// This session's journey of the event, when known.
    public var journey: [JourneyStep]?
    /// `true` when the event is still only in the journal (durable, pending, not yet in the
    /// store's SQLite file); absent otherwise.
    public var inJournal: Bool?

    /// Builds a record from a store row.
    public init(_ stored: StoredEvent, journey: [JourneyStep]? = nil) {
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
        self.journey = journey?.isEmpty == false ? journey : nil
        inJournal = stored.isInJournal ? true : nil
    }

    /// Encodes every field, the id in lowercase like everywhere else (``EventID/text(_:)``);
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
        try container.encodeIfPresent(journey, forKey: .journey)
    }
}

/// Renders monitor records as a table, JSON or CSV.
public enum MonitorExport {
    /// A JSON array of records, pretty-printed with sorted keys.
    public static func json(_ records: [MonitorRecord]) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .iso8601
        return String(decoding: try encoder.encode(records), as: UTF8.self)
    }

    /// CSV with a header row (RFC 4180 quoting); userData, context and flags as JSON text.
    public static func csv(_ records: [MonitorRecord]) -> String {
        var lines = ["id,category,name,action,status,attempts,createdAt,timestamp,nextAttemptAt,lastError,flags,userData,context"]
        for record in records {
            let fields = [
                EventID.text(record.id), record.category, record.name, record.action, record.status.rawValue,
                String(record.attempts), record.createdAt, record.timestamp, record.nextAttemptAt ?? "",
                record.lastError ?? "", record.flags.joined(separator: ";"),
                JSONText.encode(.object(record.userData)), JSONText.encode(.object(record.context)),
            ]
            lines.append(fields.map(quote).joined(separator: ","))
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// A fixed-width table for a terminal.
    public static func table(_ records: [MonitorRecord]) -> String {
        let header = ["ID (END)", "CATEGORY", "NAME", "ACTION", "STATUS", "TRIES", "CREATED", "FLAGS / ERROR"]
        var rows = [header]
        for record in records {
            let note = ((record.inJournal == true ? ["in journal"] : []) + record.flags + (record.lastError.map { [$0] } ?? []))
                .joined(separator: " ")
            rows.append([
                String(EventID.text(record.id).suffix(12)), record.category, record.name, record.action,
                record.status.rawValue, String(record.attempts), record.createdAt, String(note.prefix(60)),
            ])
        }
        var widths = [Int](repeating: 0, count: header.count)
        for row in rows { for (index, cell) in row.enumerated() { widths[index] = max(widths[index], cell.count) } }
        return rows.map { row in
            row.enumerated().map { index, cell in
                index == row.count - 1 ? cell : cell.padding(toLength: widths[index], withPad: " ", startingAt: 0)
            }.joined(separator: "  ")
        }.joined(separator: "\n") + "\n"
    }

    private static func quote(_ field: String) -> String {
        guard field.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" }) else { return field }
        return "\"" + field.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }
}
