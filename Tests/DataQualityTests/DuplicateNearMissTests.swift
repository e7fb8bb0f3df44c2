import Foundation
import Testing
import Tracking
@testable import DataQuality

@Suite("Duplicates: equal contents match, near misses do not")
struct DuplicateNearMissTests {
    private let start = Date(timeIntervalSince1970: 1_800_000_000)

    private func isDuplicate(_ first: UserData, then second: UserData, category: String = "Wishlist") -> Bool {
        let detector = DuplicateDetector(window: 1)
        _ = detector.processed(TrackedEvent(timestamp: start, category: category, name: "item", action: "add", userData: first))
        let next = TrackedEvent(timestamp: start.addingTimeInterval(0.1), category: category, name: "item", action: "add", userData: second)
        return detector.processed(next)?.hasFlag("duplicate") == true
    }

    @Test func equalContentsAreDuplicatesWhateverTheOrderOfTheirMembers() {
        var forward: UserData = [:], backward: UserData = [:]
        for index in 0..<40 { forward["key\(index)"] = .int(index) }
        for index in (0..<40).reversed() { backward["key\(index)"] = .int(index) }
        #expect(isDuplicate(forward, then: backward))
        #expect(isDuplicate(["n": ["a": 1, "b": [true, nil, 2.5]]], then: ["n": ["b": [true, nil, 2.5], "a": 1]]))
        #expect(isDuplicate(["z": 0.0], then: ["z": -0.0]))
        #expect(isDuplicate(["long": .string(String(repeating: "é", count: 33))], then: ["long": .string(String(repeating: "é", count: 33))]))
    }

    @Test(arguments: [
        (["sku": "A1"], ["sku": "A2"]),
        (["sku": "A1"], ["SKU": "A1"]),
        (["sku": "A1"], ["sku": "A1", "extra": nil]),
        (["n": 2], ["n": 2.0]),
        (["n": 1], ["n": true]),
        (["s": "1"], ["s": 1]),
        (["list": [1, 2]], ["list": [2, 1]]),
        (["o": ["a": 1]], ["o": ["a": 1, "b": 2]]),
        (["a": "b", "c": "d"], ["a": "d", "c": "b"]),
        (["text": "abcdefgh"], ["text": "abcdefgh\u{0}"]),
        (["d": .date(Date(timeIntervalSince1970: 1))], ["d": .date(Date(timeIntervalSince1970: 1.001))]),
    ] as [(UserData, UserData)])
    func nearMissesAreNotDuplicates(first: UserData, second: UserData) {
        #expect(!isDuplicate(first, then: second))
        #expect(isDuplicate(first, then: first))
    }

    @Test func theCategoryNameAndActionAreContentToo() {
        let hash = ContentHash.of(category: "ab", name: "c", action: "d", userData: [:])
        #expect(hash != ContentHash.of(category: "a", name: "bc", action: "d", userData: [:]))
        #expect(hash == ContentHash.of(category: "ab", name: "c", action: "d", userData: [:]))
    }
}
