@testable import Dispatcher
import Foundation
import Testing
import TestSupport
import Tracking

/// The accounting of a journal segment cut short while in use, in process with a real file:
/// what was read but not stored yet counts as lost when it lay past the cut, a batch borrowed
/// before the cut is known as such (the ingest writer drops and reads it again), and reading
/// again yields exactly the records below the cut.
@Suite struct JournalCutAccountingTests {
    static func event(_ index: Int) -> EncodedEvent {
        EncodedEvent(TrackedEvent(category: "Cut", name: "event", action: "\(index)", userData: ["index": .int(index)]))
    }

    @Test("A cut counts the records past it that were not stored, read or not; reading again yields those below it")
    func cutCountsWhatWasNotStored() throws {
        let folder = try TemporaryDirectory(prefix: "StoreTests")
        defer { folder.remove() }
        let journal = try EventJournal(directory: folder.file("journal").path)
        for index in 0..<300 { try journal.append(Self.event(index)) }
        let stored = journal.readBorrowed(from: .start, maxRecords: 50)
        journal.noteStored(stored.marks)
        let borrowed = journal.readBorrowed(from: stored.next, maxRecords: 100)
        #expect(!journal.wasCut(borrowed.segments))
        let segment = try #require(journal.state.withLock { $0.segments.last })
        // Nothing touches the mapping between the cut and the check that gives the size back.
        let cut = 16_384
        #expect(truncate(segment.path, off_t(cut)) == 0)
        journal.checkActiveSegment()

        #expect(journal.wasCut(borrowed.segments))
        #expect(FileIdentity(path: segment.path)?.size == segment.capacity)
        let again = journal.readBorrowed(from: stored.next, maxRecords: 1_000)
        let below = again.events.count
        #expect(below > 0 && below < 250)
        #expect(again.next.offset <= cut)
        let lost = journal.lossesSinceOpen[.cutWhileRunning] ?? 0
        #expect(lost == 300 - 50 - below, "lost \(lost), read again \(below)")
        let notices = journal.takeNotices()
        #expect(notices.count == 1 && notices[0].description.contains("was cut to \(cut) bytes"), "\(notices)")
        // Appends moved to a new segment, and go on.
        try journal.append(Self.event(300))
        #expect(journal.state.withLock { $0.segments.count } == 2)
        journal.close()
    }
}
