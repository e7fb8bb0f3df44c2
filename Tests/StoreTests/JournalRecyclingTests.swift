@testable import Dispatcher
import Foundation
import Testing
import TestSupport
import Tracking

/// Consumed journal segment files are reused for later segments, and what they held before never
/// comes back.
@Suite struct JournalRecyclingTests {
    private static let configuration = JournalConfiguration(segmentBytes: 8_192, maxSegments: 64)

    /// Appends `count` events, starting at `first`.
    private static func append(_ count: Int, from first: Int, to journal: EventJournal) throws -> [EncodedEvent] {
        let events = (first..<(first + count)).map { sampleEvent($0) }
        for event in events { try journal.append(event) }
        return events
    }

    @Test func aReusedFileReplaysOnlyItsNewRecords() throws {
        let folder = try TemporaryDirectory(prefix: "StoreTests")
        defer { folder.remove() }
        let directory = folder.file("journal").path
        var waiting: [EncodedEvent]
        var all: [EncodedEvent]
        do {
            let journal = try EventJournal(directory: directory, configuration: Self.configuration)
            all = try Self.append(150, from: 0, to: journal) // several segments
            let consumed = journal.read(from: .start, maxRecords: 150)
            #expect(consumed.events.count == 150)
            journal.discard(before: consumed.next)
            let free = try FileManager.default.contentsOfDirectory(atPath: directory).filter { $0.hasSuffix(JournalSegment.freeSuffix) }
            #expect(free.count == EventJournal.maxFreeFiles)
            // Fill the active segment past half so the consumer prepares the next one from a free file.
            waiting = []
            for index in 150..<600 {
                waiting += try Self.append(1, from: index, to: journal)
                journal.prepareNextSegment()
            }
            all += waiting
            let left = try FileManager.default.contentsOfDirectory(atPath: directory).filter { $0.hasSuffix(JournalSegment.freeSuffix) }
            #expect(left.count < EventJournal.maxFreeFiles, "no free file was reused: \(left)")
            // As after a crash: nothing closed, the files stay as they are.
        }
        // The reused files still hold records of their earlier life after the new ones: the
        // checksum seeded with the new number stops reading there. What comes back is the
        // unconsumed tail, from the start of the segment reading stopped in, each event once.
        let recovered = try EventJournal.recover(directory: directory)
        let positions = recovered.map { event in all.firstIndex { $0.id == event.id } ?? -1 }
        #expect(!positions.contains(-1) && zip(positions, positions.dropFirst()).allSatisfy { $0 + 1 == $1 })
        #expect(positions.last == all.count - 1 && recovered.count >= waiting.count && recovered.count < waiting.count + 100)
        #expect(!(try FileManager.default.contentsOfDirectory(atPath: directory).contains { $0.hasSuffix(JournalSegment.freeSuffix) }))
    }

    @Test func closingDeletesTheFilesWaitingForReuse() throws {
        let folder = try TemporaryDirectory(prefix: "StoreTests")
        defer { folder.remove() }
        let directory = folder.file("journal").path
        let journal = try EventJournal(directory: directory, configuration: Self.configuration)
        _ = try Self.append(100, from: 0, to: journal)
        let consumed = journal.read(from: .start, maxRecords: 100)
        journal.discard(before: consumed.next)
        journal.close()
        #expect(!(try FileManager.default.contentsOfDirectory(atPath: directory).contains { $0.hasSuffix(JournalSegment.freeSuffix) }))
    }
}
