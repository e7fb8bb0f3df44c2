@testable import Dispatcher
import Foundation
import Testing
import TestSupport
import Tracking

@Suite struct EventJournalTests {
    private func unusual(_ index: Int) -> EncodedEvent {
        EncodedEvent(TrackedEvent(
            category: "Cat\u{00E9}gorie-\(index)", name: "na\u{1F600}me", action: "",
            userData: ["k": .string(String(repeating: "x", count: index * 13)), "n": .double(-0.0), "e": ""],
            context: ["app": "demo"], flags: index.isMultiple(of: 2) ? [EventFlag(code: "dup", detail: "earlier")] : []
        ))
    }

    @Test func roundTripPreservesEveryByte() throws {
        let folder = try TemporaryDirectory(prefix: "StoreTests")
        defer { folder.remove() }
        let directory = folder.file("journal").path
        let events = (0..<50).map(unusual)
        let journal = try EventJournal(directory: directory)
        for event in events { try journal.append(event) }
        #expect(journal.appendedCount == 50)
        let batch = journal.read(from: .start, maxRecords: 1_000)
        #expect(batch.events == events)
        #expect(!batch.skippedDamage)
        #expect(try EventJournal.recover(directory: directory) == events)
    }

    @Test func journalFilesAreOwnerOnly() throws {
        let folder = try TemporaryDirectory(prefix: "StoreTests")
        defer { folder.remove() }
        let previous = umask(0o022)
        defer { umask(previous) }
        let directory = folder.file("journal").path
        let journal = try EventJournal(directory: directory)
        try journal.append(sampleEvent())
        let files = try FileManager.default.contentsOfDirectory(atPath: directory)
        #expect(!files.isEmpty)
        for file in files { #expect(permissions(directory + "/" + file) == 0o600, "\(file)") }
        #expect(permissions(directory) == 0o700)
    }

    @Test func tornRecordAtTheEndIsIgnored() throws {
        let folder = try TemporaryDirectory(prefix: "StoreTests")
        defer { folder.remove() }
        let directory = folder.file("journal").path
        let events = (0..<10).map { sampleEvent($0) }
        let end: JournalPosition
        do {
            let journal = try EventJournal(directory: directory)
            for event in events.prefix(9) { try journal.append(event) }
            end = try journal.append(events[9])
        }
        // Tear the last record: damage a byte of its payload, as a write cut short would.
        let file = directory + "/" + JournalSegment.fileName(end.segment)
        let handle = try #require(FileHandle(forUpdatingAtPath: file))
        handle.seek(toFileOffset: UInt64(end.offset - 12))
        handle.write(Data([0xFF, 0x00, 0xEE]))
        handle.closeFile()
        #expect(try EventJournal.recover(directory: directory) == Array(events.prefix(9)))
        // A record whose marker and length are zeroed is lost alone: replay finds the next one.
        let zeroed = try #require(FileHandle(forUpdatingAtPath: file))
        let recordStart = JournalSegment.headerSize + 5 * JournalRecord.frameSize(payload: JournalRecord.payloadSize(events[0]))
        zeroed.seek(toFileOffset: UInt64(recordStart))
        zeroed.write(Data(repeating: 0, count: 8))
        zeroed.closeFile()
        #expect(try EventJournal.recover(directory: directory) == Array(events[0..<5] + events[6..<9]))
    }

    @Test func rotatesAcrossSegmentsAndReadsInOrder() throws {
        let folder = try TemporaryDirectory(prefix: "StoreTests")
        defer { folder.remove() }
        let directory = folder.file("journal").path
        let configuration = JournalConfiguration(segmentBytes: 8_192, maxSegments: 64)
        let journal = try EventJournal(directory: directory, configuration: configuration)
        let events = (0..<300).map { sampleEvent($0) }
        var positions: [JournalPosition] = []
        for (index, event) in events.enumerated() {
            positions.append(try journal.append(event))
            if index.isMultiple(of: 10) { journal.prepareNextSegment() }
        }
        #expect(positions == positions.sorted())
        let segments = Set(positions.map(\.segment))
        #expect(segments.count >= 4)
        var read: [EncodedEvent] = []
        var cursor = JournalPosition.start
        for _ in 0..<1_000 {
            let batch = journal.read(from: cursor, maxRecords: 7)
            read.append(contentsOf: batch.events)
            cursor = batch.next
            if batch.events.isEmpty { break }
        }
        #expect(read == events)
        #expect(try EventJournal.recover(directory: directory) == events)
        journal.discard(before: cursor)
        let remaining = try FileManager.default.contentsOfDirectory(atPath: directory).filter { $0.hasSuffix(".journal") }
        #expect(remaining.count <= 2) // the active segment, and perhaps the prepared spare
        journal.close()
        #expect(throws: JournalError.closed) { try journal.append(events[0]) }
    }

    @Test func fullJournalAndOversizedEventsAreRefused() throws {
        let folder = try TemporaryDirectory(prefix: "StoreTests")
        defer { folder.remove() }
        let journal = try EventJournal(directory: folder.file("journal").path,
                                       configuration: JournalConfiguration(segmentBytes: 8_192, maxSegments: 2))
        var refused: JournalError?
        for index in 0..<200 {
            do { try journal.append(sampleEvent(index)) } catch {
                refused = error
                break
            }
        }
        #expect(refused == .full(bytes: 16_384))
        let huge = EncodedEvent(TrackedEvent(category: "Big", name: "n", action: "a", userData: ["blob": .string(String(repeating: "z", count: 20_000))]))
        #expect(throws: JournalError.self) { try journal.append(huge) }
    }

    @Test func newSegmentsNumberAboveTheMinimumAndLeftovers() throws {
        let folder = try TemporaryDirectory(prefix: "StoreTests")
        defer { folder.remove() }
        let directory = folder.file("journal").path
        let first = try EventJournal(directory: directory, minimumSegment: 41)
        let position = try first.append(sampleEvent())
        #expect(position.segment == 42)
        let second = try EventJournal(directory: directory)
        #expect(second.leftoverSegments == 1)
        #expect(try second.append(sampleEvent()).segment == 43)
    }
}
