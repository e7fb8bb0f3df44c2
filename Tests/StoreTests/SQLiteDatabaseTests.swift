import BenchReference
@testable import Dispatcher
import Foundation
import Testing
import TestSupport

@Suite struct SQLiteDatabaseTests {
    @Test func writeAheadLogIsSetAndChecked() throws {
        let folder = try TemporaryDirectory(prefix: "StoreTests")
        defer { folder.remove() }
        let database = try SQLiteDatabase(path: folder.file("wal.sqlite").path)
        try database.enableWriteAheadLog()
        #expect(try database.journalMode() == "wal")
        #expect(try database.scalarInt("PRAGMA synchronous") == 1) // NORMAL
    }

    @Test func storeFileIsWalAndOwnerOnly() throws {
        let folder = try TemporaryDirectory(prefix: "StoreTests")
        defer { folder.remove() }
        let path = folder.file("store.sqlite").path
        let previous = umask(0o022)
        defer { umask(previous) }
        let store = try EventStore(path: path)
        try store.insert([sampleEvent()])
        let check = try SQLiteDatabase(path: path)
        #expect(try check.journalMode() == "wal")
        check.close()
        for suffix in ["", "-wal", "-shm"] {
            #expect(permissions(path + suffix) == 0o600, "mode of \(suffix)")
        }
        store.close()
    }

    @Test func errorsCarryCodesMessageAndSQL() throws {
        let folder = try TemporaryDirectory(prefix: "StoreTests")
        defer { folder.remove() }
        let database = try SQLiteDatabase(path: folder.file("e.sqlite").path)
        database.close()
        let reopened = try SQLiteDatabase(path: folder.file("e.sqlite").path)
        do {
            try reopened.execute("SELECT * FROM missing_table")
            Issue.record("expected an error")
        } catch {
            #expect(error.code == SQLiteError.error)
            #expect(error.message.contains("missing_table"))
            #expect(error.sql == "SELECT * FROM missing_table")
        }
    }

    @Test func transactionRollsBackWhenTheBodyThrows() throws {
        let folder = try TemporaryDirectory(prefix: "StoreTests")
        defer { folder.remove() }
        let database = try SQLiteDatabase(path: folder.file("t.sqlite").path)
        try database.execute("CREATE TABLE t (x INTEGER)")
        struct Stop: Error {}
        #expect(throws: Stop.self) {
            try database.transaction {
                try database.execute("INSERT INTO t VALUES (1)")
                throw Stop()
            }
        }
        #expect(try database.scalarInt("SELECT count(*) FROM t") == 0)
        let statement = try database.cached("INSERT INTO t VALUES (?)")
        try statement.bind(7, at: 1)
        try statement.step()
        let again = try database.cached("INSERT INTO t VALUES (?)")
        #expect(again === statement)
        try again.bind(8, at: 1)
        try again.step()
        #expect(try database.scalarInt("SELECT sum(x) FROM t") == 15)
    }

    @Test func referenceInsertsRows() throws {
        let folder = try TemporaryDirectory(prefix: "StoreTests")
        defer { folder.remove() }
        let rate = try SQLiteReference.insertRows(count: 5_000, rowBytes: 300, batch: 1_000, path: folder.file("ref.sqlite").path)
        #expect(rate > 0)
        let database = try SQLiteDatabase(path: folder.file("ref.sqlite").path)
        #expect(try database.scalarInt("SELECT count(*) FROM rows") == 5_000)
    }
}
