import Foundation
import Testing
import Tracking
@testable import Dispatcher

@Suite("DirectJournalEvent: the record written in place is the one EncodedEvent(journaling:) makes")
struct DirectJournalEventTests {
    private static func record(_ source: some JournalEventSource) -> [UInt8] {
        let payload = JournalRecord.payloadSize(source)
        let frame = JournalRecord.frameSize(payload: payload)
        let buffer = UnsafeMutableRawPointer.allocate(byteCount: frame, alignment: 8)
        defer { buffer.deallocate() }
        buffer.initializeMemory(as: UInt8.self, repeating: 0, count: frame)
        JournalRecord.write(source, payload: payload, to: buffer, salt: 7, sequence: 0)
        return Array(UnsafeRawBufferPointer(start: buffer, count: frame))
    }

    @Test("same bytes with userData, own context, a shared context and flags; and with all of them empty")
    func sameBytes() throws {
        let shared = SharedContext(["app": ["name": "shop"], "session": ["id": "s-1"]])
        let full = TrackedEvent(category: "Cart", name: "add", action: "select",
                                userData: ["sku": "ü-1", "quantity": .int(-3), "price": 19.99, "gift": false, "tags": ["a", .null]],
                                context: ["session": ["eventIndex": .int(42)]], sharedContext: shared,
                                flags: [EventFlag(code: "unknown_field", detail: "coupon")])
        let empty = TrackedEvent(category: "Cart", name: "view", action: "open")
        for event in [full, empty] {
            try Self.withScratch { scratch in
                let direct = try #require(DirectJournalEvent(event, scratch: scratch))
                let encoded = EncodedEvent(journaling: event)
                #expect(Self.record(direct) == Self.record(encoded))
                #expect(direct.sharedContext?.hash == encoded.sharedContext?.hash)
            }
        }
    }

    private static func withScratch(size: Int = DirectJournalEvent.scratchSize, _ body: (UnsafeMutableRawBufferPointer) throws -> Void) rethrows {
        let scratch = UnsafeMutableRawBufferPointer.allocate(byteCount: size, alignment: 8)
        defer { scratch.deallocate() }
        try body(scratch)
    }

    @Test("a scratch buffer lent again holds only the next event's bytes: a shorter event after a longer one keeps nothing of it")
    func reusedScratchLeaksNothing() throws {
        let long = TrackedEvent(category: "Wishlist", name: "remove-everything", action: "confirmed",
                                userData: ["note": .string(String(repeating: "secret ", count: 40)), "count": .int(123_456)],
                                context: ["session": ["eventIndex": .int(7)]],
                                flags: [EventFlag(code: "unknown_field", detail: "note")])
        let short = TrackedEvent(category: "Cart", name: "add", action: "tap", userData: ["n": .int(1)])
        try Self.withScratch { scratch in
            let first = try #require(DirectJournalEvent(long, scratch: scratch))
            #expect(Self.record(first) == Self.record(EncodedEvent(journaling: long)))
            let second = try #require(DirectJournalEvent(short, scratch: scratch))
            let written = Self.record(second)
            #expect(written == Self.record(EncodedEvent(journaling: short)))
            #expect(second.bytesSize < first.bytesSize)
            #expect(!String(decoding: written, as: UTF8.self).contains("secret"))
        }
    }

    @Test("an event whose category, name and action do not fit is left to EncodedEvent")
    func longTextsTakeTheOtherPath() {
        let event = TrackedEvent(category: String(repeating: "c", count: DirectJournalEvent.scratchSize), name: "add", action: "select")
        Self.withScratch { scratch in #expect(DirectJournalEvent(event, scratch: scratch) == nil) }
    }

    @Test("an event whose userData and context do not fit the scratch buffer is left to EncodedEvent")
    func tooLargeTakesTheOtherPath() throws {
        let event = TrackedEvent(category: "Cart", name: "add", action: "select",
                                 userData: ["text": .string(String(repeating: "x", count: DirectJournalEvent.scratchSize))])
        Self.withScratch { scratch in #expect(DirectJournalEvent(event, scratch: scratch) == nil) }
        let fits = TrackedEvent(category: "Cart", name: "add", action: "select",
                                userData: ["text": .string(String(repeating: "x", count: DirectJournalEvent.scratchSize - 40))])
        try Self.withScratch { scratch in
            let direct = try #require(DirectJournalEvent(fits, scratch: scratch))
            #expect(Self.record(direct) == Self.record(EncodedEvent(journaling: fits)))
        }
    }

    @Test("an event nested too deep is left to EncodedEvent, which cuts and flags it")
    func tooDeepTakesTheOtherPath() {
        var value = UserDataValue.int(1)
        for _ in 0..<(UserDataValue.maximumDepth + 2) { value = .array([value]) }
        let event = TrackedEvent(category: "Cart", name: "add", action: "select", userData: ["deep": value])
        Self.withScratch { scratch in #expect(DirectJournalEvent(event, scratch: scratch) == nil) }
        #expect(EncodedEvent(journaling: event).flagsBlob != EncodedEvent.emptyArray)
    }
}
