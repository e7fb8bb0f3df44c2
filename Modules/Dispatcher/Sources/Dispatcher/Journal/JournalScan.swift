/// What opening a segment left by an earlier run found in it: where its records end, and what
/// damage took (see ``JournalRecord`` for how a damaged record is skipped).
struct JournalScan: Equatable {
    /// The end of the last record that checks.
    var end: Int
    /// Records missing between two that check (the gaps in format 3 sequence numbers), and after
    /// the last one when the next segment's seal says more were written.
    var lostRecords = 0
    /// Runs of bytes skipped because no record there checks.
    var damagedRegions = 0
    /// Records that check but cannot be used: events whose shared context record was lost.
    var unusableRecords = 0
    /// Whether the file is shorter than a whole number of pages (segments are made whole): its
    /// last records are gone, how many is not known.
    var truncated = false
    /// Whether the header was damaged (the records were read with the number in the file name).
    var headerDamaged = false
    /// The sequence after the last record read (format 3): how many records were seen or counted lost.
    var nextSequence: UInt32 = 0
    /// What this segment's seal record says about the previous segment, if it has one.
    var sealOfPrevious: JournalRecord.SegmentSeal?

    /// Whether anything was damaged.
    var isDamaged: Bool { lostRecords > 0 || damagedRegions > 0 || unusableRecords > 0 || truncated || headerDamaged }

    /// Reads every record from `start` to `limit` of a mapped segment framed as `framing`,
    /// collecting the context records into `contexts`, skipping damage.
    static func scan(in base: UnsafeRawPointer, from start: Int, to limit: Int, framing: JournalRecord.Framing,
                     contexts: inout [UInt64: EncodedSharedContext]) -> JournalScan {
        var result = JournalScan(end: start)
        var offset = start
        var expected: UInt32 = 0
        while offset < limit {
            guard let frame = JournalRecord.validFrame(at: base + offset, available: limit - offset, framing: framing) else {
                // Zeros (or a torn record) with no record after them: the end of the records.
                guard let next = nextValid(in: base, from: offset + 8, to: limit, framing: framing) else {
                    if framing.format >= 3 {
                        let lost = publishedAtTail(in: base, from: offset, to: limit, framing: framing, expected: expected)
                        result.lostRecords += Int(lost)
                        expected &+= lost
                    }
                    break
                }
                result.damagedRegions += 1
                offset = next
                continue
            }
            if framing.format >= 3 {
                if frame.sequence > expected { result.lostRecords += Int(frame.sequence - expected) }
                expected = max(expected, frame.sequence &+ 1)
            }
            switch JournalRecord.read(at: base + offset, available: limit - offset, framing: framing, contexts: &contexts)?.entry {
            case .seal(let seal)?: result.sealOfPrevious = seal
            case nil: result.unusableRecords += 1
            default: break
            }
            offset += JournalRecord.frameSize(payload: frame.payload, header: framing.header)
            result.end = offset
        }
        result.nextSequence = expected
        return result
    }

    /// The offset of the first record that checks at or after `start` (records start on 8-byte
    /// boundaries), or `nil` when there is none before `limit`.
    static func nextValid(in base: UnsafeRawPointer, from start: Int, to limit: Int, framing: JournalRecord.Framing) -> Int? {
        var offset = (start + 7) & ~7
        while offset + framing.header < limit {
            if framing.format >= 3, UInt32(littleEndian: base.loadUnaligned(fromByteOffset: offset, as: UInt32.self)) != JournalRecord.marker {
                offset += 8
                continue
            }
            if JournalRecord.validFrame(at: base + offset, available: limit - offset, framing: framing) != nil { return offset }
            offset += 8
        }
        return nil
    }
}
