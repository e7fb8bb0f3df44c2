// The end of a segment's records: telling records published and then damaged from a record torn
// by the kill and from what a recycled file held in its earlier life.
extension JournalScan {
    /// How many records were published after `start`, the end of the records that check, yet do
    /// not check themselves: the damage at the very end of a segment, which no later record's
    /// sequence number reveals.
    ///
    /// A record is published once its marker is stored, and the marker is stored last (see
    /// ``JournalRecord/seal(_:payload:salt:sequence:)``): a marker whose record does not check,
    /// carrying the next sequence number expected (or one a little after, when the damage took a
    /// sequence field too), is a record lost to damage. A record torn by the kill has no marker
    /// (its send never returned) and is not counted; neither is a record whose own marker was
    /// damaged, which cannot be told from a torn one. Counting stops at the first record of the
    /// file's earlier life (see ``JournalSegment/reuse(_:directory:number:capacity:)``): beyond
    /// it, this life wrote nothing.
    static func publishedAtTail(in base: UnsafeRawPointer, from start: Int, to limit: Int,
                                framing: JournalRecord.Framing, expected: UInt32) -> UInt32 {
        var offset = (start + 7) & ~7
        var lost: UInt32 = 0
        while offset + framing.header < limit {
            defer { offset += 8 }
            guard UInt32(littleEndian: base.loadUnaligned(fromByteOffset: offset, as: UInt32.self)) == JournalRecord.marker else { continue }
            let sequence = UInt32(littleEndian: base.loadUnaligned(fromByteOffset: offset + 8, as: UInt32.self))
            let next = expected &+ lost
            guard sequence >= next, sequence - next < maxSkippedSequences else { continue }
            if isFromEarlierLife(at: base + offset, available: limit - offset, number: framing.salt) { break }
            lost = sequence - expected + 1
        }
        return lost
    }

    /// How far past the next expected sequence a damaged record's sequence may be and still count.
    static let maxSkippedSequences: UInt32 = 64

    /// How many segment numbers back a recycled file's earlier life is looked for: more than the
    /// segments a journal's byte budget holds at its smallest segment size.
    static let earlierLivesSearched: UInt64 = 4_096

    /// Whether the record at `record` checks as one of an earlier segment number: a recycled
    /// file's earlier life, whose records fail the checksum seeded with the new number.
    static func isFromEarlierLife(at record: UnsafeRawPointer, available: Int, number: UInt64) -> Bool {
        guard number > 1 else { return false }
        var earlier = number - 1
        let lowest = number > earlierLivesSearched ? number - earlierLivesSearched : 1
        while earlier >= lowest {
            if JournalRecord.validFrame(at: record, available: available, framing: JournalRecord.Framing(format: 3, number: earlier)) != nil {
                return true
            }
            earlier -= 1
        }
        return false
    }
}
