@testable import Dispatcher
import Foundation
import Testing
import TestSupport
import Tracking

/// New store files use ``EventStoreSchema/pageSize``; files made with another page size keep it.
@Suite struct StorePageSizeTests {
    private func pageSize(_ path: String) throws -> Int64? {
        let database = try SQLiteDatabase(path: path)
        defer { database.close() }
        return try database.scalarInt("PRAGMA page_size")
    }

    @Test func aNewStoreUsesTheLargerPages() throws {
        let folder = try TemporaryDirectory(prefix: "StoreTests")
        defer { folder.remove() }
        let path = folder.file("new.sqlite").path
        let store = try EventStore(path: path)
        try store.insert([EncodedEvent(TrackedEvent(category: "basket", name: "add", action: "tap"))])
        store.close()
        #expect(try pageSize(path) == Int64(EventStoreSchema.pageSize))
        #expect(EventStoreSchema.pageSize == 16_384)
    }

    @Test func aFileWithSmallerPagesKeepsThemAndWorks() throws {
        let folder = try TemporaryDirectory(prefix: "StoreTests")
        defer { folder.remove() }
        let path = folder.file("old.sqlite").path
        // What an earlier version made: SQLite's default 4 KiB pages, fixed by the log.
        let database = try SQLiteDatabase(path: path)
        try database.execute("PRAGMA page_size = 4096")
        try database.enableWriteAheadLog()
        try database.execute("PRAGMA application_id = \(EventStoreSignature.applicationID)")
        try database.execute(EventStoreSchema.create)
        database.close()
        let events = (0..<300).map { EncodedEvent(TrackedEvent(category: "basket", name: "item_\($0)", action: "add")) }
        let store = try EventStore(path: path)
        try store.insert(events)
        let batch = try store.claimBatch(limit: 500, maxBytes: 1 << 22, now: Date())
        #expect(batch.map(\.event) == events)
        try store.acknowledge(batch.map(\.event.id))
        #expect(store.counts().total == 0)
        store.close()
        #expect(try pageSize(path) == 4_096)
    }
}
