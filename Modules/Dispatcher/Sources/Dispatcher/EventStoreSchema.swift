import Foundation

/// The SQL of an ``EventStore`` file, in one place.
///
/// One row per event in `events`, and **no secondary index**: every index costs a second B-tree
/// write per insert, which halves ingest speed. Instead:
/// - `seq` (the rowid) is time-ordered, the order of delivery; claiming scans pending rows from
///   a floor kept in memory, so it reads one page, not the store;
/// - the rows in flight are found through an in-memory `id → seq` map (and, after a crash,
///   through the `seq` range recorded in `meta` when they were claimed);
/// - duplicate ids are caught by a bounded in-memory window of recent ids (the ingest writer's
///   journal position, committed with each group, keeps replays from producing duplicates);
/// - counts live in a one-row `counters` table written in the same transactions, so opening a
///   store never scans it.
enum EventStoreSchema {
    /// The schema version kept in `PRAGMA user_version`.
    static let version: Int64 = 2

    /// Status values as stored.
    static let pending: Int64 = 0
    static let inFlight: Int64 = 1
    static let rejected: Int64 = 2

    static func code(_ status: EventStatus) -> Int64? {
        switch status {
        case .pending: pending
        case .inFlight: inFlight
        case .rejected: rejected
        case .delivered: nil
        }
    }

    static func status(_ code: Int64) -> EventStatus {
        switch code {
        case inFlight: .inFlight
        case rejected: .rejected
        default: .pending
        }
    }

    static let create = """
        CREATE TABLE IF NOT EXISTS events (
            seq INTEGER PRIMARY KEY,
            id BLOB NOT NULL,
            ts INTEGER NOT NULL,
            category TEXT NOT NULL,
            name TEXT NOT NULL,
            action TEXT NOT NULL,
            user_data BLOB NOT NULL,
            context BLOB NOT NULL,
            flags BLOB NOT NULL,
            status INTEGER NOT NULL DEFAULT 0,
            attempts INTEGER NOT NULL DEFAULT 0,
            created_at INTEGER NOT NULL,
            next_attempt_at INTEGER NOT NULL DEFAULT 0,
            last_error TEXT,
            size INTEGER NOT NULL
        );
        DROP INDEX IF EXISTS events_status;
        CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL) WITHOUT ROWID;
        CREATE TABLE IF NOT EXISTS counters (
            id INTEGER PRIMARY KEY CHECK (id = 1),
            pending INTEGER NOT NULL, in_flight INTEGER NOT NULL, rejected INTEGER NOT NULL,
            bytes INTEGER NOT NULL, evicted INTEGER NOT NULL
        );
        INSERT OR IGNORE INTO counters VALUES (1, 0, 0, 0, 0, 0);
        PRAGMA user_version = 2;
        """

    static let columns = """
        seq, id, ts, category, name, action, user_data, context, flags, status, attempts, created_at, \
        next_attempt_at, last_error
        """

    static let insert = """
        INSERT OR IGNORE INTO events (id, ts, category, name, action, user_data, context, flags, created_at, size)
        VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
        """

    static let readCounters = "SELECT pending, in_flight, rejected, bytes, evicted FROM counters WHERE id = 1"
    static let writeCounters = """
        UPDATE counters SET pending = ?, in_flight = ?, rejected = ?, bytes = ?, evicted = ? WHERE id = 1
        """

    /// The first pending row at or after the floor (skips in-flight and rejected rows).
    static let firstPending = "SELECT seq FROM events WHERE seq >= ? AND status = 0 ORDER BY seq LIMIT 1"
    static let claim = """
        SELECT \(columns), size FROM events
        WHERE seq >= ? AND status = 0 AND next_attempt_at <= ? ORDER BY seq LIMIT ?
        """
    /// Marks exactly the rows `claim` returned (the same condition over their `seq` range).
    static let markInFlight = """
        UPDATE events SET status = 1 WHERE seq BETWEEN ? AND ? AND status = 0 AND next_attempt_at <= ?
        """
    static let oldestPending = "SELECT seq, id, size FROM events WHERE seq >= ? AND status = 0 ORDER BY seq LIMIT ?"
    static let deleteBySequence = "DELETE FROM events WHERE seq = ?"
    static let acknowledge = "DELETE FROM events WHERE seq = ? AND status = 1"
    static let retry = """
        UPDATE events SET status = 0, attempts = attempts + 1, next_attempt_at = ?, last_error = ?
        WHERE seq = ? AND status = 1
        """
    static let rejectInFlight = "UPDATE events SET status = 2, attempts = attempts + 1, last_error = ? WHERE seq = ? AND status = 1"
    static let release = "UPDATE events SET status = 0 WHERE seq = ? AND status = 1"
    static let releaseRange = "UPDATE events SET status = 0 WHERE seq BETWEEN ? AND ? AND status = 1"
    static let releaseAll = "UPDATE events SET status = 0 WHERE status = 1"
    static let rejectedTotals = "SELECT count(*), total(size) FROM events WHERE status = 2"
    static let deleteRejected = "DELETE FROM events WHERE status = 2"
    static let readMeta = "SELECT value FROM meta WHERE key = ?"
    static let writeMeta = "INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)"
    static let deleteMeta = "DELETE FROM meta WHERE key = ?"

    /// The `meta` key holding the `seq` range of the rows in flight (`low:high`).
    static let inFlightRangeKey = "_store.in_flight_range"

    /// `x'…'` blob literals for an `IN (…)` list: one scan for a set of ids not in flight.
    static func literals(_ ids: [UUID]) -> String {
        let digits = Array("0123456789abcdef".utf8)
        return ids.map { id in
            var text: [UInt8] = Array("x'".utf8)
            withUnsafeBytes(of: id.uuid) { bytes in
                for byte in bytes {
                    text.append(digits[Int(byte >> 4)])
                    text.append(digits[Int(byte & 0x0F)])
                }
            }
            text.append(UInt8(ascii: "'"))
            return String(decoding: text, as: UTF8.self)
        }.joined(separator: ",")
    }
}
