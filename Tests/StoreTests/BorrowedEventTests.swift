@testable import Dispatcher
import Foundation
import Testing
import TestSupport
import Tracking

@Suite struct BorrowedEventTests {
    private func event(_ index: Int) -> EncodedEvent {
        EncodedEvent(journaling: TrackedEvent(
            category: "Cat\u{00E9}gorie-\(index)", name: "na\u{1F600}me", action: index.isMultiple(of: 3) ? "" : "act",
            userData: index.isMultiple(of: 4) ? [:] : ["k": .string(String(repeating: "x", count: index * 7)), "n": .double(-0.0)],
            context: ["app": "demo"],
            flags: index.isMultiple(of: 2) ? [EventFlag(code: ConsentHold.flagCode)] : []
        ))
    }

    @Test func anEncodedEventBorrowedAndCopiedBackIsTheSame() {
        for index in 0..<12 {
            let original = event(index)
            let (copy, size, flagged, held) = original.withBorrowed {
                ($0.encoded(), $0.approximateSize, $0.isFlagged, ConsentHold.isHeld($0.flags))
            }
            #expect(copy == original)
            #expect(size == original.approximateSize)
            #expect(flagged == (original.flagsBlob.count > 2))
            #expect(held == ConsentHold.isHeld(original.flagsBlob))
            #expect(held == index.isMultiple(of: 2))
        }
    }

    @Test func aBorrowedJournalReadFindsWhatTheCopyingReadFinds() throws {
        let folder = try TemporaryDirectory(prefix: "StoreTests")
        defer { folder.remove() }
        // Small segments: the reads cross segment boundaries.
        let journal = try EventJournal(directory: folder.file("journal").path,
                                       configuration: JournalConfiguration(segmentBytes: 16 << 10))
        let events = (0..<400).map(event)
        for event in events { try journal.append(event) }
        var position = JournalPosition.start
        var borrowed: [EncodedEvent] = []
        var copied: [EncodedEvent] = []
        var reads = 0
        while reads < 1_000 {
            reads += 1
            let batch = journal.readBorrowed(from: position, maxRecords: 37)
            let copy = journal.read(from: position, maxRecords: 37)
            #expect(batch.next == copy.next)
            #expect(!batch.skippedDamage && !copy.skippedDamage)
            #expect(!batch.segments.isEmpty || batch.events.isEmpty)
            borrowed += batch.events.map { $0.encoded() }
            copied += copy.events
            if batch.events.isEmpty && batch.next == position { break }
            position = batch.next
        }
        #expect(borrowed == events)
        #expect(copied == events)
        #expect(position.segment > 2, "the reads crossed segments")
    }

    @Test func borrowedEventsAreStoredLikeTheEncodedOnes() throws {
        let folder = try TemporaryDirectory(prefix: "StoreTests")
        defer { folder.remove() }
        let events = (0..<20).map(event)
        let encodedStore = try EventStore(path: folder.file("encoded.sqlite").path)
        try encodedStore.insert(events)
        let journal = try EventJournal(directory: folder.file("journal").path)
        for event in events { try journal.append(event) }
        let batch = journal.readBorrowed(from: .start, maxRecords: 100)
        let borrowedStore = try EventStore(path: folder.file("borrowed.sqlite").path)
        let outcome = try borrowedStore.insert(batch.events + batch.events.prefix(3))
        #expect(outcome.inserted == events.count)
        #expect(outcome.duplicates == events.prefix(3).map(\.id))
        #expect(borrowedStore.counts() == encodedStore.counts())
        #expect(borrowedStore.counts().held == 10)
        let query = StoreQuery(limit: 100)
        #expect(try borrowedStore.query(query).map(\.event) == encodedStore.query(query).map(\.event))
    }
}
