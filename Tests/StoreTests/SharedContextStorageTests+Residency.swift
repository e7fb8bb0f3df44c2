@testable import Dispatcher
import Foundation
import Testing
import TestSupport
import Tracking

#if os(Linux)
/// How much of the journal stays resident: pages written and read are handed back.
extension SharedContextStorageTests {
    /// The resident kilobytes of the mappings of `file` in `folder` in this process.
    private static func residentKilobytes(of file: String, in folder: TemporaryDirectory) throws -> Int {
        let unique = URL(fileURLWithPath: folder.path).lastPathComponent
        // Read to the end: a /proc file reports a size of 0.
        let handle = try #require(FileHandle(forReadingAtPath: "/proc/self/smaps"))
        defer { try? handle.close() }
        let maps = String(decoding: try handle.readToEnd() ?? Data(), as: UTF8.self)
        var inside = false
        var total = 0
        for line in maps.split(separator: "\n") {
            if let first = line.first, first.isHexDigit, line.contains("-"), !line.hasPrefix("Rss") {
                inside = line.hasSuffix("/" + file) && line.contains(unique)
            } else if inside, line.hasPrefix("Rss:") {
                total += Int(line.split(separator: " ")[1]) ?? 0
            }
        }
        return total
    }

    /// A journal in `folder` with events appended until `bytes` are written in its first segment.
    private static func journal(in folder: TemporaryDirectory, writing bytes: Int) throws
        -> (journal: EventJournal, end: JournalPosition, appended: Int) {
        let directory = folder.file("journal").path
        let journal = try EventJournal(directory: directory, configuration: JournalConfiguration(segmentBytes: 8 << 20, maxSegments: 8))
        var end = JournalPosition.start
        var appended = 0
        while end.offset < bytes {
            end = try journal.append(EncodedEvent(Self.event(appended)))
            appended += 1
        }
        return (journal, end, appended)
    }

    @Test func writtenJournalPagesAreHandedBack() throws {
        let folder = try TemporaryDirectory(prefix: "StoreTests")
        defer { folder.remove() }
        let (journal, end, appended) = try Self.journal(in: folder, writing: 2 * JournalSegment.releaseChunk)
        defer { journal.close() }
        let file = JournalSegment.fileName(end.segment)
        let before = try Self.residentKilobytes(of: file, in: folder)
        #expect(before >= end.offset / 1_024) // written pages are resident until handed back
        journal.releaseWrittenPages()
        let after = try Self.residentKilobytes(of: file, in: folder)
        #expect(before - after >= end.offset / 1_024 - 4, "resident \(before) KiB → \(after) KiB, \(end.offset) bytes written")
        // The records are still there, read back through the page cache.
        #expect(journal.read(from: .start, maxRecords: 100_000).events.count == appended)
    }

    @Test func pagesReadByTheWriterAreHandedBackOnceConsumed() throws {
        let folder = try TemporaryDirectory(prefix: "StoreTests")
        defer { folder.remove() }
        let (journal, end, appended) = try Self.journal(in: folder, writing: 3 * JournalSegment.releaseChunk)
        defer { journal.close() }
        journal.releaseWrittenPages()
        let file = JournalSegment.fileName(end.segment)
        let released = try Self.residentKilobytes(of: file, in: folder)
        // The ingest writer's read faults the pages in again...
        let batch = journal.readBorrowed(from: .start, maxRecords: appended)
        #expect(batch.events.count == appended)
        let read = try Self.residentKilobytes(of: file, in: folder)
        #expect(read - released >= end.offset / 1_024 - 64, "reading made \(released) KiB → \(read) KiB resident")
        // ...and once the group is committed, the writer's page work hands them back.
        journal.maintainPagesInBackground(consumed: batch.next, force: true)
        journal.pageQueue.sync {}
        let consumed = try Self.residentKilobytes(of: file, in: folder)
        // (The same work keeps a runway ahead of the end resident.)
        #expect(consumed <= released + JournalSegment.runway / 1_024 + 64, "resident \(read) KiB → \(consumed) KiB once consumed")
    }

    @Test func onlyARunwayAheadOfTheEndIsResident() throws {
        let folder = try TemporaryDirectory(prefix: "StoreTests")
        defer { folder.remove() }
        let directory = folder.file("journal").path
        let journal = try EventJournal(directory: directory, configuration: JournalConfiguration(segmentBytes: 16 << 20, maxSegments: 4))
        defer { journal.close() }
        let runway = JournalSegment.runway / 1_024
        var end = try journal.append(EncodedEvent(Self.event(0)))
        let file = JournalSegment.fileName(end.segment)
        #expect(try Self.residentKilobytes(of: file, in: folder) <= runway + 64) // not the whole 16 MiB (64 KiB: fault-around)
        while end.offset < 3 * JournalSegment.runway { end = try journal.append(EncodedEvent(Self.event(end.offset))) }
        journal.populateAhead()
        journal.releaseWrittenPages()
        let resident = try Self.residentKilobytes(of: file, in: folder)
        #expect(resident >= runway - 8 && resident <= runway + 64, "resident \(resident) KiB at offset \(end.offset)")
    }
}
#endif
