import Foundation

/// The SQL of an ``EventStore`` file, in one place.
///
/// No secondary index over every row (each would add a B-tree write per insert): the one index,
/// `events_held`, is partial, over the rows held for consent. `seq` (the rowid) is time-ordered,
/// the order of delivery. Counts live in a one-row `counters` table written in the same
/// transactions, so opening never scans. Delivered events are copied, in the transaction that
/// deletes them, into `delivered`, a bounded history numbered by `dseq`. Since version 4 a shared
/// context is kept once in `contexts`, keyed by a content hash that `context_ref` names (0: none).
/// Older files are upgraded in place when opened for writing.
enum EventStoreSchema {
    /// The page size of a new store file, in bytes.
    static let pageSize = 16_384

    /// The schema version kept in `PRAGMA user_version`.
    static let version: Int64 = 4

    /// Status values as stored.
    static let pending: Int64 = 0
    static let inFlight: Int64 = 1
    static let rejected: Int64 = 2
    static let held: Int64 = 3
    /// Not stored in `events`: the status the `delivered` table's rows are read with.
    static let delivered: Int64 = 4

    static func code(_ status: EventStatus) -> Int64 {
        switch status {
        case .pending: pending
        case .inFlight: inFlight
        case .rejected: rejected
        case .held: held
        case .delivered: delivered
        }
    }

    static func status(_ code: Int64) -> EventStatus {
        switch code {
        case inFlight: .inFlight
        case rejected: .rejected
        case held: .held
        case delivered: .delivered
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
            size INTEGER NOT NULL,
            context_ref INTEGER NOT NULL DEFAULT 0
        );
        DROP INDEX IF EXISTS events_status;
        CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL) WITHOUT ROWID;
        CREATE TABLE IF NOT EXISTS counters (
            id INTEGER PRIMARY KEY CHECK (id = 1),
            pending INTEGER NOT NULL, in_flight INTEGER NOT NULL, rejected INTEGER NOT NULL,
            bytes INTEGER NOT NULL, evicted INTEGER NOT NULL, held INTEGER NOT NULL DEFAULT 0
        );
        INSERT OR IGNORE INTO counters (id, pending, in_flight, rejected, bytes, evicted) VALUES (1, 0, 0, 0, 0, 0);
        CREATE TABLE IF NOT EXISTS delivered (
            dseq INTEGER PRIMARY KEY,
            seq INTEGER NOT NULL,
            id BLOB NOT NULL,
            ts INTEGER NOT NULL,
            category TEXT NOT NULL,
            name TEXT NOT NULL,
            action TEXT NOT NULL,
            user_data BLOB NOT NULL,
            context BLOB NOT NULL,
            flags BLOB NOT NULL,
            attempts INTEGER NOT NULL,
            created_at INTEGER NOT NULL,
            delivered_at INTEGER NOT NULL,
            context_ref INTEGER NOT NULL DEFAULT 0
        );
        CREATE TABLE IF NOT EXISTS contexts (hash INTEGER PRIMARY KEY, json BLOB NOT NULL);
        """

    /// The columns older files lack, by table, each added as an integer defaulting to 0:
    /// `counters.held` (missing in a version 2 file) and `context_ref` (before version 4).
    static let addedColumns = [("counters", "held"), ("events", "context_ref"), ("delivered", "context_ref")]
    /// Whether `table` has `column`.
    static func hasColumn(_ table: String, _ column: String) -> String {
        "SELECT count(*) FROM pragma_table_info('\(table)') WHERE name = '\(column)'"
    }
    /// Adds `column` to `table` (see ``addedColumns``).
    static func addColumn(_ table: String, _ column: String) -> String {
        "ALTER TABLE \(table) ADD COLUMN \(column) INTEGER NOT NULL DEFAULT 0"
    }
    /// Marks the file as of this version (last step of creating or upgrading it).
    static let setVersion = "PRAGMA user_version = \(version)"
    static let insertContext = "INSERT OR IGNORE INTO contexts (hash, json) VALUES (?, ?)"
    static let readContext = "SELECT json FROM contexts WHERE hash = ?"

    static let columns = """
        seq, id, ts, category, name, action, user_data, context, flags, status, attempts, created_at, \
        next_attempt_at, last_error, context_ref
        """

    /// The `delivered` table's rows, in the shape of ``columns`` (status ``delivered``).
    static let deliveredColumns = """
        seq, id, ts, category, name, action, user_data, context, flags, 4 AS status, attempts, created_at, \
        0 AS next_attempt_at, NULL AS last_error, context_ref
        """

    static let insert = """
        INSERT OR IGNORE INTO events (id, ts, category, name, action, user_data, context, flags, created_at, size, status, context_ref)
        VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
        """

    /// Rows per ``insertRows`` statement: one step for many rows costs SQLite far less per row
    /// (about a sixth less on this schema) than a step per row.
    static let rowsPerInsert = 32

    /// ``insert`` for ``rowsPerInsert`` rows at once (parameters row after row).
    static let insertRows: String = {
        let row = "(" + Array(repeating: "?", count: Int(InsertRow.parameterCount)).joined(separator: ", ") + ")"
        let head = insert.prefix { $0 != "?" }.dropLast() // up to `VALUES (`
        return head + Array(repeating: row, count: rowsPerInsert).joined(separator: ", ")
    }()

    /// Whether `events` has a unique index (on `id`, in a version 1 file), so that inserts may
    /// ignore rows.
    static let hasUniqueIndex = "SELECT count(*) FROM pragma_index_list('events') WHERE \"unique\" = 1"

    static let readCounters = "SELECT pending, in_flight, rejected, bytes, evicted, held FROM counters WHERE id = 1"
    static let writeCounters = """
        UPDATE counters SET pending = ?, in_flight = ?, rejected = ?, bytes = ?, evicted = ?, held = ? WHERE id = 1
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
    /// Copies one in-flight row into the history; `attempts` counts the delivery that succeeded.
    static let copyDelivered = """
        INSERT INTO delivered (seq, id, ts, category, name, action, user_data, context, flags, attempts, created_at, delivered_at, context_ref)
        SELECT seq, id, ts, category, name, action, user_data, context, flags, attempts + 1, created_at, ?, context_ref
        FROM events WHERE seq = ? AND status = 1
        """
    /// Copies the in-flight rows of a `seq` range into the history, in `seq` order.
    static let copyDeliveredRange = """
        INSERT INTO delivered (seq, id, ts, category, name, action, user_data, context, flags, attempts, created_at, delivered_at, context_ref)
        SELECT seq, id, ts, category, name, action, user_data, context, flags, attempts + 1, created_at, ?, context_ref
        FROM events WHERE seq BETWEEN ? AND ? AND status = 1 ORDER BY seq
        """
    static let acknowledgeRange = "DELETE FROM events WHERE seq BETWEEN ? AND ? AND status = 1 RETURNING size"
    /// Copies rows chosen by id (an `IN (…)` list appended) into the history.
    static let copyDeliveredByID = """
        INSERT INTO delivered (seq, id, ts, category, name, action, user_data, context, flags, attempts, created_at, delivered_at, context_ref)
        SELECT seq, id, ts, category, name, action, user_data, context, flags, attempts + 1, created_at, ?, context_ref
        FROM events WHERE id IN
        """
    /// Deletes the history's oldest rows, up to and including a `dseq`.
    static let trimDelivered = "DELETE FROM delivered WHERE dseq <= ?"
    /// The index of held rows by category (created on every writable open when missing).
    static let createHeldIndex = "CREATE INDEX IF NOT EXISTS events_held ON events(category) WHERE status = 3"
    static let heldInCategory = "SELECT seq, flags, size FROM events WHERE status = 3 AND category = ?"
    static let releaseHeld = "UPDATE events SET status = 0, flags = ?, size = ? WHERE seq = ? AND status = 3"
    static let deleteHeld = "DELETE FROM events WHERE status = 3 AND category = ? RETURNING size"
    static let retry = """
        UPDATE events SET status = 0, attempts = attempts + 1, next_attempt_at = ?, last_error = ?
        WHERE seq = ? AND status = 1
        """
    /// Brings pending next-attempt times after a moment back to it (from the pending floor).
    static let capRetryTimes = "UPDATE events SET next_attempt_at = ? WHERE seq >= ? AND status = 0 AND next_attempt_at > ?"
    /// The earliest next attempt of the pending rows not yet due (NULL when none waits).
    static let earliestWaiting = "SELECT min(next_attempt_at) FROM events WHERE seq >= ? AND status = 0 AND next_attempt_at > ?"
    static let rejectInFlight = "UPDATE events SET status = 2, attempts = attempts + 1, last_error = ? WHERE seq = ? AND status = 1"
    static let release = "UPDATE events SET status = 0 WHERE seq = ? AND status = 1"
    static let releaseRange = "UPDATE events SET status = 0 WHERE seq BETWEEN ? AND ? AND status = 1"
    static let releaseAll = "UPDATE events SET status = 0 WHERE status = 1"
    static let rejectedTotals = "SELECT count(*), total(size) FROM events WHERE status = 2"
    static let deleteRejected = "DELETE FROM events WHERE status = 2"
    /// Rejected rows back to pending, due now, attempts reset (the last error is kept).
    static let requeueRejected = "UPDATE events SET status = 0, attempts = 0, next_attempt_at = 0 WHERE status = 2 RETURNING seq"
    static let readMeta = "SELECT value FROM meta WHERE key = ?"
    static let writeMeta = "INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)"
    static let deleteMeta = "DELETE FROM meta WHERE key = ?"

    /// The `meta` key holding the `seq` range of the rows in flight (`low:high`).
    static let inFlightRangeKey = "_store.in_flight_range"
    /// The `meta` key of the time (milliseconds since 1970) before which the collector asked,
    /// with `Retry-After`, to be sent nothing.
    static let deferredUntilKey = "_store.delivery_hold_until"

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
