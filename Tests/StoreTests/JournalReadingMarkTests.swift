@testable import Dispatcher
import Foundation
import Testing
import TestSupport
import Tracking

/// What marks an event read from the journal, and how the reader counts it.
@Suite struct JournalReadingMarkTests {
    @Test func journalEventsAreMarkedAndCounted() throws {
        let folder = try TemporaryDirectory(prefix: "StoreTests")
        defer { folder.remove() }
        let path = folder.file("store.sqlite").path
        let journal = try EventJournal(directory: path + ".journal")
        let stored = sampleEvent(0)
        let position = try journal.append(stored)
        try journal.append(sampleEvent(1))
        journal.close()
        do {
            let store = try EventStore(path: path)
            try store.insert([stored], settingMetadata: [IngestWriter.positionKey: position.description])
            store.close()
        }
        let reader = try EventStore(path: path, readOnly: true)
        let rows = try reader.query(StoreQuery())
        #expect(rows.map(\.isInJournal) == [false, true])
        #expect(MonitorRecord(rows[1]).inJournal == true)
        #expect(MonitorRecord(rows[0]).inJournal == nil)
        #expect(try reader.count(matching: StoreQuery()) == 2)
        #expect(try reader.count(matching: StoreQuery(status: .pending)) == 2)
        #expect(try reader.count(matching: StoreQuery(status: .rejected)) == 0)
    }
}
