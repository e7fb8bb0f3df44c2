import Foundation

/// Makes event ids: UUID version 7 (RFC 9562), time-ordered so that store indexes stay local.
///
/// Within one process ids are strictly increasing, byte-wise and as strings: the 12 bits after
/// the millisecond timestamp count events within the same millisecond (RFC 9562, method 1), and
/// the remaining 62 bits are random, from a generator seeded once from the system's secure
/// source. No system call is made per id.
///
/// The order holds when the wall clock steps back: while it reads earlier than the last id,
/// ids keep the last id's millisecond and count on (borrowing the next millisecond after 4,096
/// ids), so they carry a time slightly ahead of the clock until it catches up.
public enum EventID {
    private static let generator = EventIDGenerator()

    /// A new UUIDv7 for now, greater than every id made before it in this process, even when
    /// the wall clock was stepped back.
    public static func make() -> UUID { generator.make() }

    /// A new UUIDv7 for `now`, a reading of the system's wall clock (`Date()`) just taken, so
    /// that an event's id and timestamp come from one reading; ordered like ``make()``.
    static func make(now: Date) -> UUID { generator.make(now: now) }

    /// A new UUIDv7 for `date`. A date within a second of now is ordered like ``make()``; any
    /// other (back- or forward-dated events, tests) keeps its own time, unordered, and does not
    /// affect the order of later ids. Use ``make()`` for ids that must be in order.
    public static func make(at date: Date) -> UUID { generator.make(at: date) }

    /// The id as text in its one printed form: lowercase, hyphenated (the canonical form of
    /// RFC 4122 and RFC 9562), as on the wire, in NDJSON files, the monitor and diagnostics.
    public static func text(_ id: UUID) -> String { id.uuidString.lowercased() }

    /// The millisecond timestamp encoded in a version 7 id.
    public static func milliseconds(of id: UUID) -> UInt64 {
        let bytes = id.uuid
        return [bytes.0, bytes.1, bytes.2, bytes.3, bytes.4, bytes.5].reduce(0) { $0 << 8 | UInt64($1) }
    }
}
