/// The damage found in the segments an earlier run left, when a journal opened: what replay
/// could not read, by cause. Damaged segments are kept aside as `<name>.damaged` once replayed.
struct JournalDamage: Sendable, Equatable {
    /// Records lost to damage (counted from the gaps in record sequence numbers).
    var lostRecords = 0
    /// Records that check but could not be used (their shared context record was lost).
    var unusableRecords = 0
    /// Runs of damaged bytes skipped (in segments of earlier formats, the records there are not counted).
    var damagedRegions = 0
    /// Segments cut short: the records after the cut are lost, how many is not known.
    var truncatedSegments = 0
    /// Segments whose header was damaged (their records were still read).
    var damagedHeaders = 0
    /// Files named like segments that could not be read at all, set aside as `<name>.unreadable`.
    var unreadableFiles = 0
    /// One line per damaged file.
    var details: [String] = []

    /// The counts by cause, without the zeros.
    var byCause: [JournalLossCause: Int] {
        let counts: [JournalLossCause: Int] = [
            .damagedRecord: lostRecords, .missingContext: unusableRecords, .damagedRegion: damagedRegions,
            .truncatedSegment: truncatedSegments, .damagedHeader: damagedHeaders, .unreadableFile: unreadableFiles,
        ]
        return counts.filter { $0.value > 0 }
    }

    /// Whether nothing was damaged.
    var isEmpty: Bool { details.isEmpty }

    /// Records lost, known to be events or shared contexts (truncation not included).
    var lost: Int { lostRecords + unusableRecords }

    /// Adds what the scan of segment file `name` found.
    mutating func add(_ scan: JournalScan, name: String) {
        guard scan.isDamaged else { return }
        lostRecords += scan.lostRecords
        unusableRecords += scan.unusableRecords
        damagedRegions += scan.damagedRegions
        truncatedSegments += scan.truncated ? 1 : 0
        damagedHeaders += scan.headerDamaged ? 1 : 0
        var causes: [String] = []
        if scan.headerDamaged { causes.append("damaged header") }
        if scan.damagedRegions > 0 { causes.append("\(scan.damagedRegions) damaged region\(scan.damagedRegions == 1 ? "" : "s")") }
        if scan.lostRecords > 0 { causes.append("\(scan.lostRecords) record\(scan.lostRecords == 1 ? "" : "s") lost") }
        if scan.unusableRecords > 0 { causes.append("\(scan.unusableRecords) event\(scan.unusableRecords == 1 ? "" : "s") without their shared context") }
        if scan.truncated { causes.append("truncated (the records after the cut are lost)") }
        details.append("\(name): " + causes.joined(separator: ", ") + "; kept as \(name).damaged")
    }

    /// Adds a file that could not be read at all.
    mutating func addUnreadable(name: String) {
        unreadableFiles += 1
        details.append("\(name): not a readable segment; kept as \(name).unreadable")
    }

    /// One sentence: the counts by cause, then the files.
    var description: String {
        let counts = JournalLossCause.allCases.compactMap { cause in byCause[cause].map { "\($0) \(cause)" } }
        return "journal damage found on replay: " + counts.joined(separator: ", ") + " (" + details.joined(separator: "; ") + ")"
    }
}
