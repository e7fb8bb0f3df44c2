@testable import Dispatcher
import Foundation
import Testing
import TestSupport
import Tracking

/// The page work (pages made resident ahead of the sender) is queued by appends too, once the
/// consumer hands it to the background: a sender running ahead of the consumer's batches does
/// not outrun the resident pages.
@Suite struct JournalPageWorkTests {
    private func pageWorkAppended(_ journal: EventJournal) -> Int { journal.state.withLock { $0.pageWorkAppended } }

    @Test func appendsQueueThePageWorkOnlyOnceTheConsumerHandsItToTheBackground() throws {
        let folder = try TemporaryDirectory(prefix: "StoreTests")
        defer { folder.remove() }
        let journal = try EventJournal(directory: folder.file("journal").path)
        defer { journal.close() }
        let half = EventJournal.pageWorkRecords / 2
        for index in 0..<(half + 10) { try journal.append(sampleEvent(index)) }
        #expect(pageWorkAppended(journal) == 0, "no consumer hands page work to the background: appends queue none")

        journal.maintainPagesInBackground(consumed: .start, force: true)
        journal.pageQueue.sync {}
        let start = half + 10
        #expect(pageWorkAppended(journal) == start)

        for index in 0..<(half - 1) { try journal.append(sampleEvent(start + index)) }
        #expect(pageWorkAppended(journal) == start, "fewer than half a round's records: nothing queued")
        try journal.append(sampleEvent(start + half))
        #expect(pageWorkAppended(journal) == start + half, "the append that makes half a round queues the work")
        journal.pageQueue.sync {}
        let (queued, segment) = journal.state.withLock { ($0.pageWorkQueued, $0.segments.last) }
        #expect(!queued)
        let active = try #require(segment)
        #expect(active.populatedBelow >= min(active.capacity, active.end + JournalSegment.runway),
                "the pages a runway ahead of the last append are resident")
    }
}
