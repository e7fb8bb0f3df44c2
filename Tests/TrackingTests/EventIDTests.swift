import Foundation
import Testing
import Tracking

/// Event ids are UUID version 7: versioned, unique, and ordered by time.
struct EventIDTests {
    func bytes(_ id: UUID) -> [UInt8] { withUnsafeBytes(of: id.uuid) { Array($0) } }

    @Test func idsAreVersion7WithTheRFCVariant() {
        for _ in 0..<1_000 {
            let id = bytes(EventID.make())
            #expect(id[6] >> 4 == 7)
            #expect(id[8] >> 6 == 0b10)
        }
    }

    @Test func theFirst48BitsAreTheUnixMilliseconds() {
        let date = Date(timeIntervalSince1970: 1_700_000_000.125)
        let id = bytes(EventID.make(at: date))
        let milliseconds = id[0..<6].reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
        #expect(milliseconds == 1_700_000_000_125)
        #expect(EventID.make(at: date).uuidString.hasPrefix("018BCFE5-687D-7"))
    }

    @Test func idsAreOrderedByTime() {
        let start = Date(timeIntervalSince1970: 1_763_719_200)
        let ids = (0..<1_000).map { EventID.make(at: start.addingTimeInterval(Double($0) * 0.002)) }
        #expect(ids.map(\.uuidString) == ids.map(\.uuidString).sorted())
    }

    @Test func idsAreUnique() {
        let ids = (0..<10_000).map { _ in EventID.make() }
        #expect(Set(ids).count == 10_000)
    }

    @Test func eventsGetVersion7Ids() throws {
        let event = TrackedEvent(category: "Cart", name: "add", action: "select")
        #expect(bytes(event.id)[6] >> 4 == 7)
    }
}

@Suite("EventID monotonic order")
struct EventIDMonotonicTests {
    @Test("Ids made now are strictly increasing, even within one millisecond")
    func strictlyIncreasing() {
        let ids = (0..<20_000).map { _ in EventID.make().uuidString }
        let ordered = zip(ids, ids.dropFirst()).allSatisfy { $0 < $1 }
        #expect(ordered)
        #expect(Set(ids).count == ids.count)
    }
}
