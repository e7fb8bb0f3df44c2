@testable import Dispatcher
import Foundation
import Testing
import TestSupport

/// A store is created atomically: a `demo generate` child killed (SIGKILL, injected by strace)
/// at any write or sync of its store's first open leaves a folder the next start opens, and
/// that start keeps everything it is sent.
@Suite("Integrity: a kill during a store's first open", .serialized, .runsAlone)
struct FirstOpenKillTests {
    /// The calls a first open writes or syncs with (SQLite, the lock file, the journal, the rename).
    static let calls = ["pwrite64", "fdatasync", "fsync", "ftruncate", "rename"]

    @Test("SIGKILL at each write and sync of a first open: every next start opens the store and keeps all 100 events it is sent")
    func killAtEveryWriteOfFirstOpen() async throws {
        guard let strace = ["/usr/bin/strace", "/bin/strace"].first(where: FileManager.default.isExecutableFile(atPath:)) else {
            Issue.record("strace is not installed (apt-get install strace, as .ci/run does)")
            return
        }
        let demo = try ChildRun.demo()
        var kills: [String: Int] = [:]
        for call in Self.calls {
            for occurrence in 1...200 {
                let directory = try TemporaryDirectory(prefix: "first-open-kill")
                defer { directory.remove() }
                let storePath = directory.file("store.sqlite").path
                let killed = try await ChildRun.run(URL(fileURLWithPath: strace), [
                    "-f", "-qq", "-o", "/dev/null", "-e", "trace=\(call)", "-e", "inject=\(call):signal=SIGKILL:when=\(occurrence)",
                    demo.path, "generate", "--count", "0", "--store", storePath,
                ], timeout: 60)
                guard killed.signal == SIGKILL else {
                    // Fewer than `occurrence` such calls: every one of them was tried.
                    #expect(killed.status == 0, "\(call) #\(occurrence): \(killed.standardError)")
                    break
                }
                kills[call, default: 0] += 1
                let next = try await ChildRun.run(demo, ["generate", "--count", "100", "--store", storePath], timeout: 60)
                #expect(next.status == 0, "after a kill at \(call) #\(occurrence): \(next.standardError)")
                #expect(next.standardError.contains("sent 100, persisted 100, refused 0, evicted 0"),
                        "after a kill at \(call) #\(occurrence): \(next.standardError)")
                guard next.status == 0 else { continue }
                let store = try EventStore(path: storePath, readOnly: true)
                #expect(store.counts().pending == 100, "after a kill at \(call) #\(occurrence): \(store.counts())")
                store.close()
            }
        }
        // The loop really killed the child inside SQLite's writes and syncs.
        #expect(kills["pwrite64", default: 0] >= 5 && kills["fdatasync", default: 0] >= 3, "\(kills)")
    }

    @Test("A store left half-created by an older version (header, 32-byte log, zeroed -shm) is created anew, not refused")
    func halfCreatedStoreOfAnOlderVersionOpens() async throws {
        let directory = try TemporaryDirectory(prefix: "first-open-half")
        defer { directory.remove() }
        let storePath = directory.file("store.sqlite").path
        try Self.halfCreated(at: storePath)
        let run = try await ChildRun.run(try ChildRun.demo(), ["generate", "--count", "100", "--store", storePath], timeout: 60)
        #expect(run.status == 0, "\(run.standardError)")
        #expect(run.standardError.contains("sent 100, persisted 100, refused 0"), "\(run.standardError)")
        let store = try EventStore(path: storePath, readOnly: true)
        #expect(store.counts().pending == 100, "\(store.counts())")
        store.close()
    }

    @Test("The same leftover state with a table in the database is still refused and left untouched")
    func databaseWithATableStaysForeign() async throws {
        let directory = try TemporaryDirectory(prefix: "first-open-foreign")
        defer { directory.remove() }
        let storePath = directory.file("other.sqlite").path
        try Self.halfCreated(at: storePath, table: "CREATE TABLE notes (body TEXT)")
        let before = try Data(contentsOf: URL(fileURLWithPath: storePath))
        let run = try await ChildRun.run(try ChildRun.demo(), ["generate", "--count", "10", "--store", storePath], timeout: 60)
        #expect(run.status == 1 && run.standardError.contains("is not an event store"), "\(run.standardError)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: storePath)) == before, "the foreign file was changed")
    }

    /// What a process killed during a first open left before stores were created under a
    /// temporary name: a 16 KiB SQLite header in write-ahead log mode, a log of only its
    /// 32-byte header, and a zeroed 32 KiB `-shm`. With `table`, that table is in the file.
    static func halfCreated(at path: String, table: String? = nil) throws {
        let database = try SQLiteDatabase(path: path)
        try database.execute("PRAGMA page_size = 16384")
        if let table { try database.execute(table) }
        try database.enableWriteAheadLog()
        database.close()
        var header: [UInt8] = []
        for word: UInt32 in [0x377F_0682, 3_007_000, 16_384, 0, 0x1234_5678, 0x9ABC_DEF0, 0x0BAD_F00D, 0xFEED_FACE] {
            header += [UInt8(word >> 24), UInt8(word >> 16 & 0xFF), UInt8(word >> 8 & 0xFF), UInt8(word & 0xFF)]
        }
        try Data(header).write(to: URL(fileURLWithPath: path + "-wal"))
        try Data(count: 32_768).write(to: URL(fileURLWithPath: path + "-shm"))
    }
}
