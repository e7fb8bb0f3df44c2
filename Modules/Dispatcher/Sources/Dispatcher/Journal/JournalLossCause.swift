/// Why part of the journal an earlier run left could not be replayed (see
/// ``DispatcherCounters/journalLosses``). Damaged segments are kept beside the journal as
/// `<name>.damaged`, unreadable files as `<name>.unreadable`.
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

    /// The cause as the summary names it.
    public var description: String { rawValue }
}
