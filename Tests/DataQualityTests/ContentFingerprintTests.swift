import Foundation
import Testing
import Tracking
@testable import DataQuality

@Suite("Duplicates: contents are told apart by a 128-bit fingerprint")
struct ContentFingerprintTests {
    private let start = Date(timeIntervalSince1970: 1_800_000_000)

    private func event(at offset: TimeInterval) -> TrackedEvent {
        TrackedEvent(timestamp: start.addingTimeInterval(offset), category: "Wishlist", name: "item", action: "add")
    }

    @Test func bothLanesAreComparedNotOnlyTheOneContentsAreFiledUnder() {
        var recent = RecentEvents(capacity: 10)
        let first = event(at: 0)
        #expect(recent.check(first, fingerprint: ContentFingerprint(low: 7, high: 1), window: 1).earlier == nil)
        // Same first lane, another second lane: another content, which takes the entry's place.
        #expect(recent.check(event(at: 0.1), fingerprint: ContentFingerprint(low: 7, high: 2), window: 1).earlier == nil)
        let third = event(at: 0.2)
        #expect(recent.check(third, fingerprint: ContentFingerprint(low: 7, high: 2), window: 1).earlier != nil)
        #expect(recent.check(event(at: 0.3), fingerprint: ContentFingerprint(low: 7, high: 1), window: 1).earlier == nil)
    }

    @Test func equalContentsTakeEqualFingerprintsAndNearMissesDifferInBothLanes() {
        let userData: UserData = ["sku": "A1", "n": ["a": 1, "b": [true, nil, 2.5]]]
        let fingerprint = ContentHash.fingerprint(category: "c", name: "n", action: "a", userData: userData)
        let reordered: UserData = ["n": ["b": [true, nil, 2.5], "a": 1], "sku": "A1"]
        #expect(fingerprint == ContentHash.fingerprint(category: "c", name: "n", action: "a", userData: reordered))
        #expect(fingerprint.low == ContentHash.of(category: "c", name: "n", action: "a", userData: userData))
        let misses: [UserData] = [["sku": "A2", "n": ["a": 1, "b": [true, nil, 2.5]]],
                                  ["sku": "A1", "n": ["a": 1, "b": [true, nil, 2.0]]],
                                  ["sku": "A1", "n": ["a": 2, "b": [true, nil, 2.5]]]]
        for miss in misses {
            let other = ContentHash.fingerprint(category: "c", name: "n", action: "a", userData: miss)
            #expect(other.low != fingerprint.low)
            #expect(other.high != fingerprint.high)
        }
    }

    @Test func thousandsOfDistinctContentsTakeDistinctFingerprintsInEachLane() {
        var lows = Set<UInt64>(), highs = Set<UInt64>()
        for index in 0..<5000 {
            let fingerprint = ContentHash.fingerprint(category: "c", name: "n", action: "a", userData: ["i": .int(index), "k": "\(index % 7)"])
            lows.insert(fingerprint.low)
            highs.insert(fingerprint.high)
        }
        #expect(lows.count == 5000)
        #expect(highs.count == 5000)
    }
}
