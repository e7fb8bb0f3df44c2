@testable import Dispatcher
import Foundation
import Testing
import TestSupport
import Tracking

/// The store keeps the sender's binary form; rows come back as the JSON encoder's JSON, next to
/// JSON rows written before, and consent holds read binary flags.
@Suite struct BinaryRowTests {
    private static let shared = SharedContext(["app": "demo", "device": ["os": "linux", "model": "x"]])

    private static func tracked(_ index: Int, flags: [EventFlag] = [], category: String = "Basket") -> TrackedEvent {
        let date = Date()
        return TrackedEvent(
            id: EventID.make(at: date), timestamp: date, category: category, name: "checkout", action: "pay",
            userData: ["item": .string("sku-\(index) \u{00E9}\"\n"), "price": 19.99, "big": 1e21, "zero": -0.0, "count": .int(index),
                       "when": .date(Date(timeIntervalSince1970: 1_700_000_000.25)), "nested": ["b": 2, "a": [1, 2.5, "x", .null, true]]],
            context: ["screen": "cart", "device": ["model": "y"]], sharedContext: shared, flags: flags)
    }

    /// What a reader must get for `event`: the JSON form with the shared context merged.
    private static func expected(_ event: TrackedEvent) throws -> EncodedEvent { try EncodedEvent(event).readable() }

    @Test func binaryRowsReadBackAsTheJSONEncodersJSONNextToJSONRows() throws {
        let folder = try TemporaryDirectory(prefix: "StoreTests")
        defer { folder.remove() }
        let store = try EventStore(path: folder.file("store.sqlite").path)
        let events = (0..<6).map { Self.tracked($0) }
        let binary = events.map(EncodedEvent.init(journaling:))
        #expect(binary.allSatisfy { BinaryValue.isBinary($0.userDataBlob) && BinaryValue.isBinary($0.contextBlob) })
        // An older JSON row between binary ones, as a store upgraded mid-run holds them.
        try store.insert(Array(binary[0..<2]) + [EncodedEvent(events[2])] + Array(binary[3...]))
        let rows = try store.query(StoreQuery(limit: 100))
        #expect(rows.map(\.event.id) == events.map(\.id))
        for (row, event) in zip(rows, events) {
            let expected = try Self.expected(event)
            #expect(row.event.userDataBlob == expected.userDataBlob)
            #expect(row.event.contextBlob == expected.contextBlob)
            #expect(row.event.flagsBlob == expected.flagsBlob)
            #expect(row.event.sharedContext == nil)
            #expect(try row.event.decoded() == expected.decoded()) // JSON turns dates into strings, either way
        }
        let claimed = try store.claimBatch(limit: 100, maxBytes: .max, now: Date())
        #expect(claimed.map(\.event) == rows.map(\.event)) // the delivery path reads the same JSON
        try store.acknowledge(claimed.map(\.event.id))
        #expect(store.counts().bytes == 0) // settled by the size counted in, not the size read back as JSON
        let history = try store.query(StoreQuery(status: .delivered))
        #expect(history.map(\.event) == rows.map(\.event))
    }

    @Test func binaryFlagsHoldAndReleaseLikeJSONOnes() throws {
        let folder = try TemporaryDirectory(prefix: "StoreTests")
        defer { folder.remove() }
        let store = try EventStore(path: folder.file("store.sqlite").path)
        let hold = [EventFlag(code: "awaiting_consent", detail: "marketing"), EventFlag(code: "duplicate")]
        let held = (0..<3).map { EncodedEvent(journaling: Self.tracked($0, flags: hold, category: "Marketing")) }
        let notHeld = EncodedEvent(journaling: Self.tracked(9, flags: [EventFlag(code: "duplicate", detail: "awaiting_consent")]))
        #expect(held.allSatisfy { BinaryValue.isBinary($0.flagsBlob) && ConsentHold.isHeld($0.flagsBlob) })
        #expect(!ConsentHold.isHeld(notHeld.flagsBlob))
        try store.insert(held + [notHeld])
        #expect(store.counts().held == 3 && store.counts().pending == 1)
        #expect(try store.claimBatch(limit: 100, maxBytes: .max, now: Date()).map(\.event.id) == [notHeld.id])
        #expect(try store.releaseHeld(category: "Marketing") == 3)
        let released = try store.claimBatch(limit: 100, maxBytes: .max, now: Date())
        #expect(released.map(\.event.id) == held.map(\.id))
        #expect(released.allSatisfy { $0.event.flagCodes == ["duplicate"] && $0.event.flagsBlob == Array(#"[{"code":"duplicate"}]"#.utf8) })
    }

    @Test func theJournalReaderOfTheMonitorReadsBinaryRecordsAsJSON() throws {
        let folder = try TemporaryDirectory(prefix: "StoreTests")
        defer { folder.remove() }
        let directory = folder.file("journal").path
        let events = (0..<200).map { Self.tracked($0) }
        do {
            let journal = try EventJournal(directory: directory, configuration: JournalConfiguration(segmentBytes: 16_384, maxSegments: 64))
            #expect(journal.append(contentsOf: events.map(EncodedEvent.init(journaling:))).written == events.count)
            journal.close()
        }
        #expect(try JournalReader.events(in: directory, after: .start) == events.map { try Self.expected($0) })
        let recovered = try EventJournal.recover(directory: directory)
        #expect(recovered.allSatisfy { BinaryValue.isBinary($0.userDataBlob) }) // replay hands the store the binary form
    }

    @Test func theIngestWriterStoresWhatTheSenderWrote() throws {
        let folder = try TemporaryDirectory(prefix: "StoreTests")
        defer { folder.remove() }
        let path = folder.file("store.sqlite").path
        let events = (0..<50).map { Self.tracked($0) }
        let store = try EventStore(path: path)
        let writer = try IngestWriter(store: store)
        for event in events { try writer.write(EncodedEvent(journaling: event)) }
        #expect(writer.waitUntilPersisted(timeout: 10))
        let rows = try store.query(StoreQuery(limit: 100))
        #expect(try rows.map(\.event) == events.map { try Self.expected($0) })
        #expect(writer.close())
    }
}
