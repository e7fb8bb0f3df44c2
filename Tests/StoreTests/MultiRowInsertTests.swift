@testable import Dispatcher
import Foundation
import Testing
import TestSupport
import Tracking

/// A journal batch goes into the store ``EventStoreSchema/rowsPerInsert`` rows per statement;
/// these check that nothing about the rows or the counts depends on that.
@Suite struct MultiRowInsertTests {
    private func event(_ index: Int) -> EncodedEvent {
        EncodedEvent(journaling: TrackedEvent(
            category: index.isMultiple(of: 5) ? "consent-\(index)" : "basket", name: "item_\(index)", action: "add",
            userData: ["index": .int(index), "text": .string(String(repeating: "y", count: index % 40))],
            context: index.isMultiple(of: 7) ? ["screen": .string("s\(index)")] : [:],
            flags: index.isMultiple(of: 5) ? [EventFlag(code: ConsentHold.flagCode)] : []
        ))
    }

    private func journalBatch(_ events: [EncodedEvent], in folder: TemporaryDirectory) throws -> (EventJournal, [BorrowedEvent]) {
        let journal = try EventJournal(directory: folder.file("journal").path)
        for event in events { try journal.append(event) }
        let batch = journal.readBorrowed(from: .start, maxRecords: events.count + 10)
        #expect(batch.events.count == events.count)
        return (journal, batch.events)
    }

    @Test func aBatchOfSeveralStatementsStoresWhatRowByRowInsertsStore() throws {
        let folder = try TemporaryDirectory(prefix: "StoreTests")
        defer { folder.remove() }
        // Four full statements and a remainder, with duplicates inside the batch.
        let count = EventStoreSchema.rowsPerInsert * 4 + 22
        let events = (0..<count).map(event)
        let encodedStore = try EventStore(path: folder.file("encoded.sqlite").path)
        try encodedStore.insert(events)
        let (journal, borrowed) = try journalBatch(events, in: folder)
        let withRepeats = borrowed.prefix(40) + borrowed[3...3] + borrowed.dropFirst(40) + borrowed[70...71]
        let store = try EventStore(path: folder.file("borrowed.sqlite").path)
        let outcome = try store.insert(Array(withRepeats))
        withExtendedLifetime(journal) {}
        #expect(outcome.inserted == count)
        #expect(outcome.duplicates == [events[3].id, events[70].id, events[71].id])
        #expect(store.counts() == encodedStore.counts())
        #expect(store.counts().held == (0..<count).filter { $0.isMultiple(of: 5) }.count)
        let query = StoreQuery(limit: count + 10)
        let rows = try store.query(query)
        #expect(rows.map(\.event) == (try encodedStore.query(query)).map(\.event))
        #expect(rows.map(\.event.id) == events.map(\.id))
        let sequences = rows.map(\.sequence)
        #expect(sequences == Array(sequences[0]..<(sequences[0] + Int64(count))), "one seq each, in order")
        // The next batch continues after them.
        let more = (count..<(count + 40)).map(event)
        try store.insert(more)
        #expect(store.counts().total == count + 40)
    }

    @Test func aVersionOneStoreWithUniqueIDsStillReportsTheIDsItIgnores() throws {
        let folder = try TemporaryDirectory(prefix: "StoreTests")
        defer { folder.remove() }
        let path = folder.file("legacy.sqlite").path
        let events = (0..<(EventStoreSchema.rowsPerInsert * 2 + 5)).map(event)
        let first = try EventStore(path: path)
        try first.insert([events[10]])
        first.close()
        // What a version 1 file had: a unique index on `id`.
        let database = try SQLiteDatabase(path: path)
        try database.execute("CREATE UNIQUE INDEX events_id ON events(id)")
        database.close()
        // Reopened, the duplicate window is empty: only the index knows `events[10]`.
        let (journal, borrowed) = try journalBatch(events, in: folder)
        let store = try EventStore(path: path)
        let outcome = try store.insert(borrowed)
        withExtendedLifetime(journal) {}
        #expect(outcome.inserted == events.count - 1)
        #expect(outcome.duplicates == [events[10].id])
        #expect(store.counts().total == events.count)
    }
}
