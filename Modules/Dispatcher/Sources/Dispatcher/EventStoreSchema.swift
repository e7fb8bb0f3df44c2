/// The SQL of an ``EventStore`` file, in one place.
///
/// One row per event in `events`. `seq` is the rowid: time-ordered, the order of delivery. The
/// 16-byte `id` (UUIDv7, time-ordered) is UNIQUE, so duplicates are ignored and its index stays
/// local. One small index on `status` serves claiming (pending rows in `seq` order) and the
/// status counts. Counters live in a one-row table updated in the same transactions, so opening
/// a store never scans it.
enum EventStoreSchema {
    /// The schema version kept in `PRAGMA user_version`.
    static let version: Int64 = 1

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
            id BLOB NOT NULL UNIQUE,
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
        CREATE INDEX IF NOT EXISTS events_status ON events (status);
        CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL) WITHOUT ROWID;
        CREATE TABLE IF NOT EXISTS counters (
            id INTEGER PRIMARY KEY CHECK (id = 1),
            pending INTEGER NOT NULL, in_flight INTEGER NOT NULL, rejected INTEGER NOT NULL,
            bytes INTEGER NOT NULL, evicted INTEGER NOT NULL
        );
        INSERT OR IGNORE INTO counters VALUES (1, 0, 0, 0, 0, 0);
        PRAGMA user_version = 1;
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

    static let claim = """
        SELECT \(columns), size FROM events
        WHERE status = 0 AND next_attempt_at <= ? ORDER BY seq LIMIT ?
        """
    static let markInFlight = "UPDATE events SET status = 1 WHERE seq = ?"
    static let oldestPending = "SELECT seq, id, size FROM events WHERE status = 0 ORDER BY seq LIMIT ?"
    static let deleteBySequence = "DELETE FROM events WHERE seq = ?"
    static let acknowledge = "DELETE FROM events WHERE id = ? RETURNING status, size"
    static let retry = """
        UPDATE events SET status = 0, attempts = attempts + 1, next_attempt_at = ?, last_error = ?
        WHERE id = ? AND status = 1
        """
    static let rejectFrom = """
        UPDATE events SET status = 2, attempts = attempts + 1, last_error = ? WHERE id = ? AND status = ?
        """
    static let release = "UPDATE events SET status = 0 WHERE id = ? AND status = 1"
    static let releaseAll = "UPDATE events SET status = 0 WHERE status = 1"
    static let rejectedTotals = "SELECT count(*), total(size) FROM events WHERE status = 2"
    static let deleteRejected = "DELETE FROM events WHERE status = 2"
    static let readMeta = "SELECT value FROM meta WHERE key = ?"
    static let writeMeta = "INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)"
    static let deleteMeta = "DELETE FROM meta WHERE key = ?"
}
