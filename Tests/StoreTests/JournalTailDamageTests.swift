@testable import Dispatcher
import Foundation
import Testing
import TestSupport

/// Damage at the very end of a segment, after its last record that checks: no later record's
/// sequence number reveals it, so the scan counts the published records there, and tells them
/// from what a recycled file held in its earlier life.
@Suite struct JournalTailDamageTests {
    /// The offsets of the records of a format 3 segment file, in order, as written.
    static func recordOffsets(in data: Data) -> [Int] {
        var offsets: [Int] = []
        var offset = JournalSegment.headerSize
        while offset + JournalRecord.frameHeader < data.count,
              data.withUnsafeBytes({ $0.loadUnaligned(fromByteOffset: offset, as: UInt32.self) }) == JournalRecord.marker {
            offsets.append(offset)
            let length = data.withUnsafeBytes { Int($0.loadUnaligned(fromByteOffset: offset + 4, as: UInt32.self)) }
            offset += JournalRecord.frameSize(payload: length)
        }
        return offsets
    }

    /// Writes `count` events to a journal at `directory`, closes it, then lets `damage` change
    /// the bytes of its segment, given the offsets of its records.
    static func writeJournal(_ directory: String, count: Int, damage: (inout Data, [Int]) -> Void) throws {
        let journal = try EventJournal(directory: directory)
        #expect(journal.append(contentsOf: (0..<count).map { sampleEvent($0) }).written == count)
        journal.close()
        let segment = URL(fileURLWithPath: directory + "/" + JournalSegment.fileName(1))
        var data = try Data(contentsOf: segment)
        damage(&data, recordOffsets(in: data))
        try data.write(to: segment)
    }

    @Test func aDamagedLastRecordIsCountedAndTheSegmentKeptAside() async throws {
        let folder = try TemporaryDirectory(prefix: "StoreTests")
        defer { folder.remove() }
        let storePath = folder.file("store.sqlite").path
        try Self.writeJournal(storePath + ".journal", count: 2_000) { data, offsets in
            data[offsets[offsets.count - 1] + JournalRecord.frameHeader + 10] ^= 0x40
        }
        let segment = storePath + ".journal/" + JournalSegment.fileName(1)

        let dispatcher = try Dispatcher(configuration: DispatcherConfiguration(storePath: storePath))
        let counters = dispatcher.counters
        await dispatcher.close()
        #expect(counters.journalLosses == [.damagedRecord: 1], "\(counters.journalLosses)")
        #expect(counters.store.pending == 1_999, "\(counters.store)")
        #expect(FileManager.default.fileExists(atPath: segment + ".damaged"))
    }

    @Test func damageToTheLastRecordsAndASequenceFieldCountsEachRecord() throws {
        let folder = try TemporaryDirectory(prefix: "StoreTests")
        defer { folder.remove() }
        let directory = folder.file("journal").path
        try Self.writeJournal(directory, count: 500) { data, offsets in
            for offset in offsets.suffix(3) { data[offset + JournalRecord.frameHeader + 20] ^= 0x01 }
            data[offsets[offsets.count - 2] + 9] ^= 0x10 // the second-to-last record's sequence
        }

        let journal = try EventJournal(directory: directory)
        defer { journal.close() }
        #expect(journal.damage.lostRecords == 3, "\(journal.damage)")
        #expect(journal.read(from: .start, maxRecords: 1_000).events.count == 497)
    }

    @Test func aRecordTornByTheKillIsNotCounted() throws {
        let folder = try TemporaryDirectory(prefix: "StoreTests")
        defer { folder.remove() }
        let directory = folder.file("journal").path
        // The marker is stored last: a record torn by the kill has its payload and no marker.
        try Self.writeJournal(directory, count: 100) { data, offsets in
            for index in 0..<8 { data[offsets[offsets.count - 1] + index] = 0 }
        }

        let journal = try EventJournal(directory: directory)
        defer { journal.close() }
        #expect(journal.damage.isEmpty, "\(journal.damage)")
        #expect(journal.read(from: .start, maxRecords: 1_000).events.count == 99)
    }

    @Test func aRecycledFilesEarlierRecordsAfterTheEndAreNotLosses() throws {
        let folder = try TemporaryDirectory(prefix: "StoreTests")
        defer { folder.remove() }
        let directory = folder.file("journal").path
        let configuration = JournalConfiguration(segmentBytes: 64 << 10, maxSegments: 8)
        let journal = try EventJournal(directory: directory, configuration: configuration)
        var index = 0
        func append(until stop: (JournalPosition) -> Bool) throws {
            while true {
                let position = try journal.append(sampleEvent(index))
                index += 1
                if stop(position) { return }
            }
        }
        // Segment 1 full, segment 2 past half: segment 1 is consumed and its file waits for reuse.
        try append { $0.segment == 2 && $0.offset > 40 << 10 }
        journal.discard(before: JournalPosition(segment: 2, offset: JournalSegment.headerSize))
        // Segment 3 is made from segment 1's file, and takes a few records: the rest of the file
        // still holds segment 1's records, at the same offsets, with the same sequence numbers.
        journal.prepareNextSegment()
        try append { $0.segment == 3 }
        for _ in 0..<5 { _ = try journal.append(sampleEvent(index)); index += 1 }
        journal.close()
        let reused = try Data(contentsOf: URL(fileURLWithPath: directory + "/" + JournalSegment.fileName(3)))
        let earlierLife = stride(from: 32 << 10, to: 60 << 10, by: 8).contains {
            offset in reused.withUnsafeBytes { $0.loadUnaligned(fromByteOffset: offset, as: UInt32.self) } == JournalRecord.marker
        }
        #expect(earlierLife, "segment 3 is not segment 1's file")

        let reopened = try EventJournal(directory: directory, configuration: configuration)
        defer { reopened.close() }
        #expect(reopened.damage.isEmpty, "\(reopened.damage)")
    }
}
