@testable import Dispatcher
import Foundation
import Testing
import TestSupport
import Tracking

@Suite struct EventStoreRecoveryTests {
    @Test func corruptFileIsSetAsideAndAFreshStoreWorks() throws {
        let folder = try TemporaryDirectory(prefix: "StoreTests")
        defer { folder.remove() }
        let path = folder.file("store.sqlite").path
        var generator = SystemRandomNumberGenerator()
        // A store's own header (its signature) over damaged pages: set aside, unlike a file
        // without the signature (see StoreSignatureTests).
        do {
            let store = try EventStore(path: path)
            try store.checkpoint()
            store.close()
        }
        let header = try #require(FileManager.default.contents(atPath: path)).prefix(100)
        let garbage = Array(header) + (100..<65_536).map { _ in UInt8.random(in: 0...255, using: &generator) }
        #expect(FileManager.default.createFile(atPath: path, contents: Data(garbage)))
        #expect(FileManager.default.createFile(atPath: path + "-wal", contents: Data(garbage.prefix(1_000))))
        let store = try EventStore(path: path)
        let aside = try #require(store.recoveredFrom)
        #expect(aside.hasPrefix(path + ".corrupt-"))
        #expect(FileManager.default.contents(atPath: aside) == Data(garbage))
        #expect(FileManager.default.fileExists(atPath: aside + "-wal"))
        try store.insert([sampleEvent()])
        #expect(store.counts().pending == 1)
        #expect(try store.query(StoreQuery()).count == 1)
    }

    @Test func textFileIsRefusedAndLeftUntouched() throws {
        let folder = try TemporaryDirectory(prefix: "StoreTests")
        defer { folder.remove() }
        let path = folder.file("store.sqlite").path
        let text = Data(String(repeating: "this is not a database\n", count: 200).utf8)
        #expect(FileManager.default.createFile(atPath: path, contents: text))
        #expect(throws: StoreError.self) { _ = try EventStore(path: path) }
        #expect(FileManager.default.contents(atPath: path) == text)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["store.sqlite"])
    }

    @Test func damagedPagesAreSetAsideWhenFound() throws {
        let folder = try TemporaryDirectory(prefix: "StoreTests")
        defer { folder.remove() }
        let path = folder.file("store.sqlite").path
        let store = try EventStore(path: path)
        try store.insert((0..<2_000).map { sampleEvent($0) })
        try store.checkpoint()
        store.close()
        // Keep the header and the first five pages (schema, table roots, counters); damage the rest.
        let handle = try #require(FileHandle(forWritingAtPath: path))
        handle.seek(toFileOffset: 5 * 4_096)
        handle.write(Data(repeating: 0xA5, count: 200_000))
        handle.closeFile()
        let reopened = try EventStore(path: path)
        var reported: StoreError?
        for _ in 0..<3 where reopened.recoveredFrom == nil {
            do {
                _ = try reopened.query(StoreQuery(sort: .category, limit: 10_000))
                _ = try reopened.claimBatch(limit: 2_000, maxBytes: .max, now: Date())
            } catch let error as StoreError {
                reported = error
            }
        }
        let aside = try #require(reopened.recoveredFrom)
        #expect(FileManager.default.fileExists(atPath: aside))
        if let reported, case .corrupt(_, let setAside, _) = reported { #expect(setAside == aside) }
        try reopened.insert([sampleEvent(1)])
        #expect(reopened.counts().pending == 1)
        #expect(try reopened.query(StoreQuery()).count == 1)
    }

    /// Tests run as root, where `chmod 0500` does not stop writes. A probe write tells; when it
    /// is ignored, the store path goes *through a regular file* (`file.txt/store.sqlite`), a
    /// folder that cannot exist for anyone, root included.
    @Test func unwritableFolderThrowsAClearError() throws {
        let folder = try TemporaryDirectory(prefix: "StoreTests")
        defer { folder.remove() }
        let path: String
        if writesIgnorePermissions(in: folder) {
            #expect(FileManager.default.createFile(atPath: folder.file("file.txt").path, contents: Data("x".utf8)))
            path = folder.file("file.txt").path + "/store.sqlite"
        } else {
            let locked = folder.file("locked").path
            _ = chmod(locked, 0o500)
            path = locked + "/store.sqlite"
        }
        defer { _ = chmod(folder.file("locked").path, 0o700) }
        do {
            _ = try EventStore(path: path)
            Issue.record("expected an error")
        } catch let error as StoreError {
            guard case .cannotOpen(let failing, let reason, _) = error else {
                Issue.record("unexpected \(error)")
                return
            }
            #expect(path.hasPrefix(failing))
            #expect(!reason.isEmpty)
            #expect(error.description.contains("cannot open store"))
        }
    }

    @Test func fullDiskIsReportedAndTheStoreRecovers() throws {
        let folder = try TemporaryDirectory(prefix: "StoreTests")
        defer { folder.remove() }
        let store = try EventStore(path: folder.file("store.sqlite").path)
        try store.insert([sampleEvent()])
        try store.checkpoint()
        try store.limitPages(Int(store.fileBytes) / EventStoreSchema.pageSize + 1)
        do {
            try store.insert((0..<5_000).map { sampleEvent($0) })
            Issue.record("expected a full disk")
        } catch let error as StoreError {
            guard case .diskFull = error else {
                Issue.record("unexpected \(error)")
                return
            }
        }
        #expect(store.counts().pending == 1)
        #expect(try store.query(StoreQuery()).count == 1)
        try store.limitPages(1_000_000)
        try store.insert((0..<5_000).map { sampleEvent($0) })
        #expect(store.counts().pending == 5_001)
    }
}
