/// A place in an ``EventJournal``: a segment number and a byte offset inside it.
///
/// Positions order records: every record appended later has a greater position. The ingest
/// writer stores the position up to which it has moved events into SQLite, in the same
/// transaction, so a restart never replays what was already persisted.
struct JournalPosition: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// The segment number (segments are numbered upwards and never reused).
    var segment: UInt64
    /// The byte offset inside the segment.
    var offset: Int

    /// Creates a position.
    init(segment: UInt64, offset: Int) {
        self.segment = segment
        self.offset = offset
    }

    /// The very beginning, before every segment.
    static let start = JournalPosition(segment: 0, offset: 0)

    /// Orders by segment, then offset.
    static func < (lhs: JournalPosition, rhs: JournalPosition) -> Bool {
        (lhs.segment, lhs.offset) < (rhs.segment, rhs.offset)
    }

    /// `segment:offset`, the form kept in the store's metadata.
    var description: String { "\(segment):\(offset)" }

    /// Parses the `segment:offset` form.
    init?(_ text: String) {
        let parts = text.split(separator: ":")
        guard parts.count == 2, let segment = UInt64(parts[0]), let offset = Int(parts[1]) else { return nil }
        self.init(segment: segment, offset: offset)
    }
}
