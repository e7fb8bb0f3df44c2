import Foundation

// Reading rows and converting times.
extension EventStore {
    static func milliseconds(_ date: Date) -> Int64 { Int64((date.timeIntervalSince1970 * 1000).rounded(.down)) }

    static func date(_ milliseconds: Int64) -> Date { Date(timeIntervalSince1970: Double(milliseconds) / 1000) }

    /// Reads a row selected with ``EventStoreSchema/columns``.
    static func row(_ statement: SQLiteStatement) -> StoredEvent {
        let event = EncodedEvent(
            id: statement.uuid(1) ?? UUID(uuid: (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)),
            timestampMilliseconds: statement.int64(2),
            category: statement.string(3) ?? "",
            name: statement.string(4) ?? "",
            action: statement.string(5) ?? "",
            userDataJSON: statement.bytes(6),
            contextJSON: statement.bytes(7),
            flagsJSON: statement.bytes(8)
        )
        let next = statement.int64(12)
        return StoredEvent(
            sequence: statement.int64(0),
            event: event,
            status: EventStoreSchema.status(statement.int64(9)),
            attempts: statement.int(10),
            createdAt: date(statement.int64(11)),
            nextAttemptAt: next > 0 ? date(next) : nil,
            lastError: statement.string(13)
        )
    }
}
