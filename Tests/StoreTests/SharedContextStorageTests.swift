@testable import Dispatcher
import Foundation
import Testing
import TestSupport
import Tracking

/// A shared context is journalled once per segment and stored once, and every reader sees the
/// full context, merged as ``SharedContext/merge(_:_:)`` merges.
@Suite struct SharedContextStorageTests {
    static let shared = SharedContext([
        "app": .object(["name": "Demo", "build": 42, "tags": .array(["a", "é"])]),
        "session": .object(["id": "s-1", "started": .double(1.5)]),
        "device": "Pixel \u{1F600}",
        "empty": .object([:]),
        "quote\"key": .null,
    ])

    /// An event sharing ``shared``, with its own context on top.
    static func event(_ index: Int, shared: SharedContext = shared) -> TrackedEvent {
        TrackedEvent(category: "Basket", name: "checkout", action: "pay", userData: ["i": .int(index)],
                     context: ["session": .object(["eventIndex": .int(index), "id": "own-\(index)"]), "device": .int(index),
                               "empty": .object(["x": true]), "own": "only"],
                     sharedContext: shared)
    }

    static func decode(_ json: [UInt8]) throws -> UserData { try JSONDecoder().decode(UserData.self, from: Data(json)) }

    @Test func jsonMergeMatchesTheValueMerge() throws {
        let cases: [(UserData, UserData)] = [
            (Self.shared.values, Self.event(3).eventContext),
            (Self.shared.values, [:]),
            ([:], ["a": 1]),
            (["a": .object(["b": .object(["c": 1, "d": 2])])], ["a": .object(["b": .object(["c": 3])])]), // one level only
            (["a": .object(["b": 1])], ["a": "scalar wins"]),
            (["a": "scalar"], ["a": .object(["b": 1])]),
            (["a": .array([.object(["x": 1])])], ["a": .array([])]),
            (["k\u{00E9}y\n": "x", "z": .date(Date(timeIntervalSince1970: 1))], ["k\u{00E9}y\n": "y"]),
        ]
        for (base, own) in cases {
            let merged = ContextMerge.merge(shared: EncodedSharedContext(SharedContext(base)).json,
                                            own: EncodedEvent(TrackedEvent(category: "c", name: "n", action: "a", context: own)).contextBlob)
            let expected = EncodedEvent(TrackedEvent(category: "c", name: "n", action: "a", context: SharedContext.merge(base, own))).contextBlob
            #expect(try Self.decode(merged) == Self.decode(expected), "\(base) + \(own)")
        }
    }

    @Test func theSenderEncodesTheSharedPartOncePerInstance() throws {
        let first = EncodedEvent(Self.event(1))
        let second = EncodedEvent(Self.event(2))
        #expect(first.sharedContext != nil && first.sharedContext === second.sharedContext)
        #expect(EncodedEvent(Self.event(1, shared: SharedContext([:]))).sharedContext == nil) // nothing to share
        #expect(try Self.decode(first.readable().contextBlob) == Self.event(1).context)
        #expect(try first.decoded().context == Self.event(1).context)
    }

    @Test func aSharedContextTooDeepIsCutAndFlagged() throws {
        var deep: UserDataValue = "bottom"
        for _ in 0..<(UserDataValue.maximumDepth + 3) { deep = .array([deep]) }
        let event = EncodedEvent(TrackedEvent(category: "c", name: "n", action: "a", sharedContext: SharedContext(["deep": deep])))
        #expect(event.flagCodes.contains(EventFlag.contextTruncated.description))
        #expect(try Self.decode(event.readable().contextBlob)["deep"] != nil)
    }

    /// The shared contexts of each segment file, counted by reading the records themselves.
    static func contextRecords(in directory: String) throws -> [Int] {
        let names = try FileManager.default.contentsOfDirectory(atPath: directory).filter { $0.hasSuffix(".journal") }.sorted()
        return try names.map { name in
            let data = try Data(contentsOf: URL(fileURLWithPath: directory + "/" + name))
            return data.withUnsafeBytes { bytes in
                var contexts: [UInt64: EncodedSharedContext] = [:]
                var offset = JournalSegment.headerSize
                var found = 0
                let framing = JournalRecord.Framing(format: 3, number: JournalSegment.number(fromFileName: name) ?? 0)
                while let (entry, frame) = JournalRecord.read(at: bytes.baseAddress! + offset, available: bytes.count - offset,
                                                              framing: framing, contexts: &contexts) {
                    if case .context = entry { found += 1 }
                    offset += frame
                }
                return found
            }
        }
    }

    @Test func theJournalWritesEachSharedContextOncePerSegment() throws {
        let folder = try TemporaryDirectory(prefix: "StoreTests")
        defer { folder.remove() }
        let directory = folder.file("journal").path
        let events = (0..<200).map { EncodedEvent(Self.event($0)) }
        do {
            let journal = try EventJournal(directory: directory, configuration: JournalConfiguration(segmentBytes: 8_192, maxSegments: 64))
            #expect(journal.append(contentsOf: Array(events[..<100])).written == 100)
            for event in events[100...] { try journal.append(event) }
            journal.close()
        }
        let perSegment = try Self.contextRecords(in: directory)
        #expect(perSegment.count > 3)
        #expect(perSegment.allSatisfy { $0 == 1 }, "\(perSegment)")
        let recovered = try EventJournal.recover(directory: directory)
        #expect(recovered == events)
        for (index, event) in recovered.enumerated() {
            #expect(try Self.decode(event.readable().contextBlob) == Self.event(index).context)
        }
        #expect(try JournalReader.events(in: directory, after: .start).map(\.contextBlob) == events.map { try $0.readable().contextBlob })
    }

    @Test func aDamagedContextRecordEndsItsSegment() throws {
        let folder = try TemporaryDirectory(prefix: "StoreTests")
        defer { folder.remove() }
        let directory = folder.file("journal").path
        do {
            let journal = try EventJournal(directory: directory)
            for index in 0..<5 { try journal.append(EncodedEvent(Self.event(index))) }
            journal.close()
        }
        let file = directory + "/" + JournalSegment.fileName(1)
        let handle = try #require(FileHandle(forUpdatingAtPath: file))
        handle.seek(toFileOffset: UInt64(JournalSegment.headerSize + JournalRecord.frameHeader + JournalRecord.contextFixedPayload + 3))
        handle.write(Data([0xFF]))
        handle.closeFile()
        // The events after it refer to a context that cannot be read: none is delivered without it.
        #expect(try EventJournal.recover(directory: directory).isEmpty)
    }

    /// Writes a segment as format 1 (journals written before shared contexts) wrote it.
    static func writeFormatOneSegment(_ events: [EncodedEvent], directory: String, number: UInt64) throws {
        var bytes: [UInt8] = []
        func append<T: FixedWidthInteger>(_ value: T) { withUnsafeBytes(of: value.littleEndian) { bytes.append(contentsOf: $0) } }
        append(JournalSegment.legacyMagic)
        append(number)
        for event in events {
            var payload: [UInt8] = []
            withUnsafeBytes(of: event.id.uuid) { payload.append(contentsOf: $0) }
            withUnsafeBytes(of: event.timestampMilliseconds.littleEndian) { payload.append(contentsOf: $0) }
            let parts = [Array(event.category.utf8), Array(event.name.utf8), Array(event.action.utf8),
                         event.userDataBlob, event.contextBlob, event.flagsBlob]
            for part in parts { withUnsafeBytes(of: UInt32(part.count).littleEndian) { payload.append(contentsOf: $0) } }
            for part in parts { payload.append(contentsOf: part) }
            append(UInt32(payload.count))
            append(payload.withUnsafeBytes { JournalRecord.checksum($0) })
            bytes.append(contentsOf: payload)
            while bytes.count % 8 != 0 { bytes.append(0) }
        }
        bytes.append(contentsOf: [UInt8](repeating: 0, count: 4_096))
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        try Data(bytes).write(to: URL(fileURLWithPath: directory + "/" + JournalSegment.fileName(number)))
    }

    @Test func aFormatOneSegmentLeftByAnEarlierVersionIsReplayed() throws {
        let folder = try TemporaryDirectory(prefix: "StoreTests")
        defer { folder.remove() }
        let path = folder.file("store.sqlite").path
        let old = try (0..<20).map { try EncodedEvent(Self.event($0)).readable() } // format 1 kept full contexts
        try Self.writeFormatOneSegment(old, directory: path + ".journal", number: 1)
        #expect(try EventJournal.recover(directory: path + ".journal") == old)
        let store = try EventStore(path: path)
        let writer = try IngestWriter(store: store)
        try writer.write(EncodedEvent(Self.event(20)))
        #expect(writer.waitUntilPersisted(timeout: 10))
        #expect(writer.statistics.replayed == 20)
        let rows = try store.query(StoreQuery(limit: 100))
        #expect(rows.count == 21)
        for row in rows {
            let index = try #require(Self.decode(row.event.userDataBlob)["i"]?.intValue)
            #expect(try row.trackedEvent().context == Self.event(index).context)
        }
        writer.close()
        store.close()
    }

    static func contextRows(_ store: EventStore) throws -> Int64? {
        try store.withDatabase { try $0.scalarInt("SELECT count(*) FROM contexts") }
    }

    @Test func theStoreKeepsEachSharedContextOnceAndEveryReaderSeesItMerged() throws {
        let folder = try TemporaryDirectory(prefix: "StoreTests")
        defer { folder.remove() }
        let path = folder.file("store.sqlite").path
        let other = SharedContext(["app": .object(["name": "Other"])])
        do {
            let store = try EventStore(path: path)
            try store.insert((0..<30).map { EncodedEvent(Self.event($0)) })
            try store.insert((30..<60).map { EncodedEvent(Self.event($0)) } + [EncodedEvent(Self.event(60, shared: other))])
            #expect(try Self.contextRows(store) == 2)
            store.close()
        }
        let store = try EventStore(path: path) // a fresh cache: contexts are read back from the file
        let expected = (0...60).map { Self.event($0, shared: $0 == 60 ? other : Self.shared).context }
        let claimed = try store.claimBatch(limit: 100, maxBytes: .max, now: Date())
        #expect(claimed.count == 61)
        for (index, row) in claimed.enumerated() {
            #expect(row.event.sharedContext == nil)
            #expect(try Self.decode(row.event.contextBlob) == expected[index])
            #expect(try row.trackedEvent().context == expected[index])
        }
        try store.acknowledge(claimed.map(\.event.id))
        let delivered = try store.query(StoreQuery(status: .delivered, limit: 100))
        #expect(try delivered.map { try Self.decode($0.event.contextBlob) } == expected)
        #expect(try EventStore(path: path, readOnly: true).query(StoreQuery(status: .delivered, limit: 1)).first?.trackedEvent().context == expected[0])
        try store.purge()
        #expect(try Self.contextRows(store) == 0)
        try store.insert([EncodedEvent(Self.event(0))]) // stored again after the purge forgot it
        #expect(try Self.contextRows(store) == 1)
        #expect(try store.query(StoreQuery()).first?.trackedEvent().context == expected[0])
    }

    @Test func aVersionThreeFileIsUpgradedAndItsRowsStayDeliverable() throws {
        let folder = try TemporaryDirectory(prefix: "StoreTests")
        defer { folder.remove() }
        let path = folder.file("store.sqlite").path
        do {
            let old = try SQLiteDatabase(path: path)
            let versionThree = EventStoreSchema.create
                .replacingOccurrences(of: #",\s*context_ref INTEGER NOT NULL DEFAULT 0"#, with: "", options: .regularExpression)
                .replacingOccurrences(of: "CREATE TABLE IF NOT EXISTS contexts (hash INTEGER PRIMARY KEY, json BLOB NOT NULL);", with: "")
            #expect(!versionThree.contains("context_ref") && !versionThree.contains("contexts"))
            try old.execute(versionThree + "PRAGMA user_version = 3;")
            try old.execute("""
                UPDATE counters SET pending = 1, bytes = 100;
                INSERT INTO events (id, ts, category, name, action, user_data, context, flags, created_at, size)
                    VALUES (x'00112233445566778899aabbccddeeff', 1, 'Basket', 'checkout', 'pay', '{"i":1}', '{"app":"old"}', '[]', 1, 100);
                INSERT INTO delivered (seq, id, ts, category, name, action, user_data, context, flags, attempts, created_at, delivered_at)
                    VALUES (9, x'00112233445566778899aabbccddee00', 1, 'Basket', 'checkout', 'pay', '{}', '{"app":"delivered"}', '[]', 1, 1, 2);
                """)
            old.close()
        }
        let store = try EventStore(path: path)
        #expect(try store.withDatabase { try $0.scalarInt("PRAGMA user_version") } == 4)
        #expect(try store.query(StoreQuery(status: .delivered)).first?.trackedEvent().context == ["app": "delivered"])
        try store.insert([EncodedEvent(Self.event(2))])
        let claimed = try store.claimBatch(limit: 10, maxBytes: .max, now: Date())
        #expect(claimed.count == 2)
        #expect(try claimed.first?.trackedEvent().context == ["app": "old"])
        #expect(try claimed.last?.trackedEvent().context == Self.event(2).context)
        try store.acknowledge(claimed.map(\.event.id))
        #expect(try store.query(StoreQuery(status: .delivered)).count == 3)
        store.close()
    }
}
