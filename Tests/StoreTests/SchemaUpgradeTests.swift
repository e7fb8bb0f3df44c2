@testable import Dispatcher
import Foundation
import Testing
import TestSupport
import Tracking

/// A store file written by schema version 2 is upgraded in place.
@Suite struct SchemaUpgradeTests {
    @Test func aVersionTwoFileGainsTheHeldCounterAndTheDeliveredHistory() throws {
        let folder = try TemporaryDirectory(prefix: "StoreTests")
        defer { folder.remove() }
        let path = folder.file("store.sqlite").path
        do {
            let old = try SQLiteDatabase(path: path)
            try old.execute("""
                CREATE TABLE events (seq INTEGER PRIMARY KEY, id BLOB NOT NULL, ts INTEGER NOT NULL,
                    category TEXT NOT NULL, name TEXT NOT NULL, action TEXT NOT NULL, user_data BLOB NOT NULL,
                    context BLOB NOT NULL, flags BLOB NOT NULL, status INTEGER NOT NULL DEFAULT 0,
                    attempts INTEGER NOT NULL DEFAULT 0, created_at INTEGER NOT NULL,
                    next_attempt_at INTEGER NOT NULL DEFAULT 0, last_error TEXT, size INTEGER NOT NULL);
                CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL) WITHOUT ROWID;
                CREATE TABLE counters (id INTEGER PRIMARY KEY CHECK (id = 1), pending INTEGER NOT NULL,
                    in_flight INTEGER NOT NULL, rejected INTEGER NOT NULL, bytes INTEGER NOT NULL, evicted INTEGER NOT NULL);
                INSERT INTO counters VALUES (1, 1, 0, 0, 100, 7);
                INSERT INTO events (id, ts, category, name, action, user_data, context, flags, created_at, size)
                    VALUES (x'00112233445566778899aabbccddeeff', 1, 'Basket', 'checkout', 'pay', '{}', '{}', '[]', 1, 100);
                PRAGMA user_version = 2;
                """)
            old.close()
        }
        #expect(throws: StoreError.self) { _ = try EventStore(path: path, readOnly: true) } // not upgraded by reading
        let store = try EventStore(path: path)
        #expect(store.counts() == StoreCounts(pending: 1, bytes: 100, evicted: 7))
        let claimed = try store.claimBatch(limit: 10, maxBytes: .max, now: Date())
        try store.acknowledge(claimed.map(\.event.id))
        #expect(try store.query(StoreQuery(status: .delivered)).count == 1)
        try store.insert([sampleEvent(0)])
        #expect(store.counts().pending == 1 && store.counts().held == 0)
        store.close()
        #expect(try EventStore(path: path, readOnly: true).counts().pending == 1)
    }
}
