@testable import Dispatcher
import Foundation
import Testing
import TestSupport
import Tracking

/// A store opened for reading inspects a live store and never writes.
@Suite struct ReadOnlyStoreTests {
    @Test func readsALiveStoreWithoutReleasingItsRowsInFlight() throws {
        let folder = try TemporaryDirectory(prefix: "StoreTests")
        defer { folder.remove() }
        let path = folder.file("store.sqlite").path
        let live = try EventStore(path: path)
        let events = (0..<10).map { sampleEvent($0) }
        try live.insert(events)
        let claimed = try live.claimBatch(limit: 3, maxBytes: .max, now: Date())
        try live.acknowledge(Array(claimed.prefix(1)).map(\.event.id))

        let reader = try EventStore(path: path, readOnly: true)
        #expect(reader.isReadOnly)
        #expect(reader.counts() == live.counts())
        #expect(reader.counts().inFlight == 2)
        #expect(try reader.query(StoreQuery(status: .inFlight)).count == 2)
        #expect(try reader.query(StoreQuery(status: .delivered)).map(\.event.id) == [events[0].id])

        try live.insert([sampleEvent(99)]) // the reader sees later changes
        #expect(reader.counts().pending == 8)
        #expect(try reader.query(StoreQuery(status: .pending)).count == 8)
        reader.close()
        #expect(live.counts().inFlight == 2)
        try live.acknowledge(Array(claimed.suffix(2)).map(\.event.id)) // the live store is undisturbed
        #expect(live.counts().inFlight == 0)
    }

    @Test func everyWriteThrowsAndTheFileIsUnchanged() throws {
        let folder = try TemporaryDirectory(prefix: "StoreTests")
        defer { folder.remove() }
        let path = folder.file("store.sqlite").path
        do {
            let store = try EventStore(path: path)
            try store.insert([sampleEvent(0)])
            _ = try store.claimBatch(limit: 1, maxBytes: .max, now: Date()) // left in flight on close
            store.close()
        }
        let reader = try EventStore(path: path, readOnly: true)
        #expect(reader.counts().inFlight == 1) // not released by opening
        func isReadOnlyError(_ body: () throws -> Void) -> Bool {
            do { try body() } catch StoreError.readOnly { return true } catch { return false }
            return false
        }
        #expect(isReadOnlyError { try reader.insert([sampleEvent(1)]) })
        #expect(isReadOnlyError { _ = try reader.claimBatch(limit: 1, maxBytes: .max, now: Date()) })
        #expect(isReadOnlyError { try reader.purge() })
        #expect(isReadOnlyError { try reader.setMetadata("k", "v") })
        #expect(isReadOnlyError { try reader.releaseAllInFlight() })
        #expect(isReadOnlyError { try reader.releaseHeld(category: "Basket") })
        reader.close()
        let again = try EventStore(path: path, readOnly: true)
        #expect(again.counts().inFlight == 1 && again.counts().pending == 0)
    }

    @Test func aMissingFileIsAClearErrorAndIsNotCreated() throws {
        let folder = try TemporaryDirectory(prefix: "StoreTests")
        defer { folder.remove() }
        let path = folder.file("missing/store.sqlite").path
        #expect {
            _ = try EventStore(path: path, readOnly: true)
        } throws: { error in
            guard case StoreError.cannotOpen(let failing, let reason, _) = error else { return false }
            return failing == path && reason.contains("no store file")
        }
        #expect(!FileManager.default.fileExists(atPath: path))
        #expect(!FileManager.default.fileExists(atPath: folder.file("missing").path))
    }

    @Test func aFileThatIsNotAStoreIsRefusedNotSetAside() throws {
        let folder = try TemporaryDirectory(prefix: "StoreTests")
        defer { folder.remove() }
        let path = folder.file("notes.sqlite").path
        #expect(FileManager.default.createFile(atPath: path, contents: Data(repeating: 0x41, count: 8_192)))
        #expect(throws: StoreError.self) { _ = try EventStore(path: path, readOnly: true) }
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["notes.sqlite"])
    }
}
