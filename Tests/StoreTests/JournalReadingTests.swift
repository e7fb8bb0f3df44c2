@testable import Dispatcher
import Foundation
import Testing
import TestSupport
import Tracking

/// A store opened for reading also shows the events still only in its journal (after a crash),
/// without writing anything.
@Suite struct JournalReadingTests {
    /// Every file under `folder` (journal included) with its bytes and modification time.
    private static func snapshot(_ folder: TemporaryDirectory) throws -> [String: String] {
        var result: [String: String] = [:]
        let enumerator = FileManager.default.enumerator(atPath: folder.path)
        while let name = enumerator?.nextObject() as? String {
            let path = folder.file(name).path
            let attributes = try FileManager.default.attributesOfItem(atPath: path)
            let data = FileManager.default.contents(atPath: path) ?? Data()
            result[name] = "\(data.count) \(data.hashValue) \(String(describing: attributes[.modificationDate]))"
        }
        return result
    }

    /// A store holding `stored`, its journal holding those and then `journalOnly` (the position
    /// recorded in the store is after `stored`), as a writer killed before its next commit leaves it.
    private static func crashedStore(_ folder: TemporaryDirectory, stored: [EncodedEvent], journalOnly: [EncodedEvent]) throws -> String {
        let path = folder.file("store.sqlite").path
        let journal = try EventJournal(directory: path + ".journal")
        var position = JournalPosition.start
        for event in stored { position = try journal.append(event) }
        for event in journalOnly { try journal.append(event) }
        let store = try EventStore(path: path)
        try store.insert(stored, settingMetadata: [IngestWriter.positionKey: position.description])
        store.close()
        journal.close()
        return path
    }

    @Test func aReadOnlyStoreShowsJournalEventsAsPendingAndWritesNothing() throws {
        let folder = try TemporaryDirectory(prefix: "StoreTests")
        defer { folder.remove() }
        let stored = (0..<3).map { sampleEvent($0) }
        let journalOnly = (3..<7).map { sampleEvent($0) }
        // The journal also holds a second copy of one event: listed once.
        let path = try Self.crashedStore(folder, stored: stored, journalOnly: journalOnly + [journalOnly[1]])
        let before = try Self.snapshot(folder)

        let reader = try EventStore(path: path, readOnly: true)
        let all = try reader.query(StoreQuery())
        #expect(all.map(\.event.id) == (stored + journalOnly).map(\.id))
        #expect(all.allSatisfy { $0.status == .pending })
        let pending = try reader.query(StoreQuery(status: .pending))
        #expect(pending.map(\.event.id) == (stored + journalOnly).map(\.id))
        // Page by page, every event once.
        var paged: [UUID] = []
        for offset in stride(from: 0, to: 10, by: 2) {
            paged += try reader.query(StoreQuery(limit: 2, offset: offset)).map(\.event.id)
        }
        #expect(paged == (stored + journalOnly).map(\.id))
        // Each part in the requested order: the store's events, then the journal's.
        #expect(try reader.query(StoreQuery(ascending: false)).map(\.event.id)
            == stored.map(\.id).reversed() + journalOnly.map(\.id).reversed())
        reader.close()
        #expect(try Self.snapshot(folder) == before, "nothing created, changed or deleted")
    }

    @Test func journalEventsAlreadyInTheStoreAreListedOnce() throws {
        let folder = try TemporaryDirectory(prefix: "StoreTests")
        defer { folder.remove() }
        let stored = (0..<3).map { sampleEvent($0) }
        let path = try Self.crashedStore(folder, stored: stored, journalOnly: [sampleEvent(9)])
        // The recorded position is lost: the journal's records before it are in the store already.
        do {
            let store = try EventStore(path: path)
            try store.setMetadata(IngestWriter.positionKey, nil)
            store.close()
        }
        let reader = try EventStore(path: path, readOnly: true)
        let ids = try reader.query(StoreQuery()).map(\.event.id)
        #expect(ids.count == 4)
        #expect(Set(ids).count == 4)
    }
}
