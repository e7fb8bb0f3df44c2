@testable import Dispatcher
import Foundation
import Testing
import TestSupport
import Tracking

/// Replay of damaged segments in process: the loss reaches `onDiagnostic` and the counters, and
/// segments of the previous format (2) are still replayed, past a damaged record too.
@Suite struct JournalDamageReplayTests {
    /// Diagnostics received, from any thread.
    final class Received: Sendable {
        private let messages = LockedValue<[String]>([])
        func add(_ message: String) { messages.withLock { $0.append(message) } }
        var all: [String] { messages.withLock { $0 } }
    }

    /// Flips one byte inside the payload of the record at `index` of a format 3 segment file.
    static func damageRecord(_ index: Int, in path: String) throws {
        var data = try Data(contentsOf: URL(fileURLWithPath: path))
        var offset = JournalSegment.headerSize
        for _ in 0..<index {
            let length = data.withUnsafeBytes { Int($0.loadUnaligned(fromByteOffset: offset + 4, as: UInt32.self)) }
            offset += JournalRecord.frameSize(payload: length)
        }
        data[offset + JournalRecord.frameHeader + 10] ^= 0x40
        try data.write(to: URL(fileURLWithPath: path))
    }

    @Test func aDamagedRecordIsReportedThroughOnDiagnosticAndCountedByCause() async throws {
        let folder = try TemporaryDirectory(prefix: "StoreTests")
        defer { folder.remove() }
        let storePath = folder.file("store.sqlite").path
        let events = (0..<3_000).map { sampleEvent($0) }
        do {
            let journal = try EventJournal(directory: storePath + ".journal")
            #expect(journal.append(contentsOf: events).written == events.count)
            journal.close()
        }
        let segment = storePath + ".journal/" + JournalSegment.fileName(1)
        try Self.damageRecord(1_500, in: segment)
        let received = Received()
        let dispatcher = try Dispatcher(configuration: DispatcherConfiguration(storePath: storePath, onDiagnostic: { received.add($0.message) }))
        let counters = dispatcher.counters
        await dispatcher.close()
        #expect(counters.journalLosses == [.damagedRecord: 1, .damagedRegion: 1], "\(counters.journalLosses)")
        #expect(counters.store.pending == events.count - 1, "\(counters.store)")
        #expect(received.all.contains { $0.contains("journal damage found on replay: 1 damaged records") && $0.contains(".damaged") },
                "\(received.all)")
        #expect(FileManager.default.fileExists(atPath: segment + ".damaged"))
        #expect(!FileManager.default.fileExists(atPath: segment))
    }

    /// Rewrites a format 3 segment file as format 2 wrote it: the TRKJRNL2 magic, and frames of
    /// a length and a checksum seeded with the segment number (no marker, no sequence).
    static func rewriteAsFormatTwo(_ path: String, number: UInt64) throws {
        let data = try Data(contentsOf: URL(fileURLWithPath: path))
        var bytes: [UInt8] = []
        func append<T: FixedWidthInteger>(_ value: T) { withUnsafeBytes(of: value.littleEndian) { bytes.append(contentsOf: $0) } }
        append(JournalSegment.format2Magic)
        append(number)
        var offset = JournalSegment.headerSize
        while data.withUnsafeBytes({ $0.loadUnaligned(fromByteOffset: offset, as: UInt32.self) }) == JournalRecord.marker {
            let length = data.withUnsafeBytes { Int($0.loadUnaligned(fromByteOffset: offset + 4, as: UInt32.self)) }
            let payload = Array(data[(offset + JournalRecord.frameHeader)..<(offset + JournalRecord.frameHeader + length)])
            append(UInt32(length))
            append(payload.withUnsafeBytes { JournalRecord.checksum($0, salt: number) })
            bytes.append(contentsOf: payload)
            while bytes.count % 8 != 0 { bytes.append(0) }
            offset += JournalRecord.frameSize(payload: length)
        }
        bytes.append(contentsOf: [UInt8](repeating: 0, count: 4_096 - bytes.count % 4_096))
        try Data(bytes).write(to: URL(fileURLWithPath: path))
    }

    @Test func aFormatTwoSegmentIsReplayedPastADamagedRecord() throws {
        let folder = try TemporaryDirectory(prefix: "StoreTests")
        defer { folder.remove() }
        let directory = folder.file("journal").path
        let events = (0..<500).map { sampleEvent($0) }
        do {
            let journal = try EventJournal(directory: directory)
            #expect(journal.append(contentsOf: events).written == events.count)
            journal.close()
        }
        let path = directory + "/" + JournalSegment.fileName(1)
        try Self.rewriteAsFormatTwo(path, number: 1)
        #expect(try EventJournal.recover(directory: directory) == events)
        // A damaged record: the ones after it are found again by their checksums.
        var data = try Data(contentsOf: URL(fileURLWithPath: path))
        var offset = JournalSegment.headerSize
        for _ in 0..<200 {
            let length = data.withUnsafeBytes { Int($0.loadUnaligned(fromByteOffset: offset, as: UInt32.self)) }
            offset += JournalRecord.frameSize(payload: length, header: JournalRecord.legacyFrameHeader)
        }
        data[offset + 20] ^= 0x01
        try data.write(to: URL(fileURLWithPath: path))
        #expect(try EventJournal.recover(directory: directory) == Array(events[..<200] + events[201...]))
    }
}
