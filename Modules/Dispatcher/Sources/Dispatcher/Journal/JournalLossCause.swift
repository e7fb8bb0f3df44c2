/// Why part of the journal could not be replayed: damage in what an earlier run left, or a
/// segment cut short while running (see ``DispatcherCounters/journalLosses``). Damaged segments
/// are kept beside the journal as `<name>.damaged`, unreadable files as `<name>.unreadable`.
public enum JournalLossCause: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// Records lost to damaged bytes, counted from the gaps in record sequence numbers.
    case damagedRecord = "damaged records"
    /// Events that check but whose shared context record was lost with damage.
    case missingContext = "events without their context"
    /// Runs of damaged bytes skipped (in segments of earlier formats their records are not counted).
    case damagedRegion = "damaged regions"
    /// Segment files cut short: the records after the cut are gone, how many is not known.
    case truncatedSegment = "truncated segments"
    /// Segment headers damaged (the records were still read).
    case damagedHeader = "damaged headers"
    /// Files named like segments that could not be read at all.
    case unreadableFile = "unreadable files"
    /// Records lost because a segment file was cut short (truncated) by something else while
    /// this process was writing it.
    case cutWhileRunning = "records cut from a segment while running"

    /// The cause as the summary names it.
    public var description: String { rawValue }
}
