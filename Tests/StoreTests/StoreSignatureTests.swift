@testable import Dispatcher
import Foundation
import Testing
import TestSupport
import Tracking

/// The store's signature (`PRAGMA application_id`): a file without it is refused and left
/// untouched; the store's own files, old or new, are opened.
@Suite struct StoreSignatureTests {
    /// Every file in `folder` with its bytes.
    private static func contents(of folder: TemporaryDirectory) throws -> [String: Data] {
        var result: [String: Data] = [:]
        for name in try FileManager.default.contentsOfDirectory(atPath: folder.path) {
            result[name] = FileManager.default.contents(atPath: folder.file(name).path)
        }
        return result
    }

    /// The error `body` throws, as text, or `nil` when it did not throw.
    private static func failure(_ body: () throws -> Void) -> String? {
        do {
            try body()
            return nil
        } catch {
            return "\(error)"
        }
    }

    private static func applicationID(_ path: String) throws -> Int64? {
        let database = try SQLiteDatabase(path: path, flags: [.readOnly])
        defer { database.close() }
        return try database.scalarInt("PRAGMA application_id")
    }

    @Test func aTextFileIsRefusedAndLeftUntouched() throws {
        let folder = try TemporaryDirectory(prefix: "StoreTests")
        defer { folder.remove() }
        let path = folder.file("notes.md").path
        #expect(FileManager.default.createFile(atPath: path, contents: Data("# Notes\nnot a database\n".utf8)))
        let before = try Self.contents(of: folder)
        for readOnly in [false, true] {
            let message = Self.failure { _ = try EventStore(path: path, readOnly: readOnly) }
            #expect(message?.contains("is not an event store") == true, "readOnly \(readOnly): \(message ?? "opened")")
            #expect(message?.contains("left untouched") == true)
        }
        #expect(try Self.contents(of: folder) == before, "no file renamed, written or created (no lock file either)")
    }

    @Test func anotherApplicationsDatabaseIsRefusedAndLeftUntouched() throws {
        let folder = try TemporaryDirectory(prefix: "StoreTests")
        defer { folder.remove() }
        let path = folder.file("other.sqlite").path
        do {
            let other = try SQLiteDatabase(path: path)
            try other.execute("PRAGMA application_id = 1234; CREATE TABLE notes (text TEXT); INSERT INTO notes VALUES ('keep me')")
            other.close()
        }
        let before = try Self.contents(of: folder)
        let message = Self.failure { _ = try EventStore(path: path) }
        #expect(message?.contains("is not an event store") == true, "\(message ?? "opened")")
        #expect(try Self.contents(of: folder) == before)

        // Without an application id, a database lacking the store's tables is refused too.
        let plain = folder.file("plain.sqlite").path
        do {
            let other = try SQLiteDatabase(path: plain)
            try other.execute("CREATE TABLE notes (text TEXT)")
            other.close()
        }
        let plainBefore = FileManager.default.contents(atPath: plain)
        #expect(Self.failure { _ = try EventStore(path: plain) }?.contains("is not an event store") == true)
        #expect(FileManager.default.contents(atPath: plain) == plainBefore)
        #expect(!FileManager.default.fileExists(atPath: plain + ".lock"))
    }

    @Test func aNewStoreCarriesTheSignature() throws {
        let folder = try TemporaryDirectory(prefix: "StoreTests")
        defer { folder.remove() }
        let path = folder.file("store.sqlite").path
        do {
            let store = try EventStore(path: path)
            try store.insert([sampleEvent(0)])
            store.close()
        }
        #expect(try Self.applicationID(path) == 0x5452_4B51)
        // An empty file is a new store.
        let empty = folder.file("empty.sqlite").path
        #expect(FileManager.default.createFile(atPath: empty, contents: Data()))
        let store = try EventStore(path: empty)
        try store.insert([sampleEvent(1)])
        store.close()
        #expect(try Self.applicationID(empty) == 0x5452_4B51)
    }

    @Test func anOlderStoreWithoutTheSignatureIsAdoptedAndStamped() throws {
        let folder = try TemporaryDirectory(prefix: "StoreTests")
        defer { folder.remove() }
        let path = folder.file("store.sqlite").path
        let events = (0..<3).map { sampleEvent($0) }
        do {
            let store = try EventStore(path: path)
            try store.insert(events)
            store.close()
            // What an older version wrote: the same schema, no application id.
            let database = try SQLiteDatabase(path: path)
            try database.execute("PRAGMA application_id = 0")
            _ = try database.scalarInt("PRAGMA wal_checkpoint(TRUNCATE)")
            database.close()
        }
        #expect(try Self.applicationID(path) == 0)
        let reader = try EventStore(path: path, readOnly: true)
        #expect(try reader.query(StoreQuery()).map(\.event.id) == events.map(\.id))
        reader.close()
        #expect(try Self.applicationID(path) == 0, "a read-only open stamps nothing")
        let store = try EventStore(path: path)
        #expect(store.recoveredFrom == nil)
        #expect(store.counts().pending == 3)
        store.close()
        #expect(try Self.applicationID(path) == 0x5452_4B51)
    }

    @Test func aDamagedStoreWithTheSignatureIsStillSetAside() throws {
        let folder = try TemporaryDirectory(prefix: "StoreTests")
        defer { folder.remove() }
        let path = folder.file("store.sqlite").path
        do {
            let store = try EventStore(path: path)
            try store.insert((0..<200).map { sampleEvent($0) })
            try store.checkpoint()
            store.close()
        }
        var bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
        for index in 100..<min(bytes.count, 8192) { bytes[index] = UInt8(truncatingIfNeeded: index &* 131) }
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        let store = try EventStore(path: path)
        let aside = try #require(store.recoveredFrom)
        #expect(FileManager.default.contents(atPath: aside) == Data(bytes))
        try store.insert([sampleEvent(1)])
        #expect(store.counts().pending == 1)
    }
}
