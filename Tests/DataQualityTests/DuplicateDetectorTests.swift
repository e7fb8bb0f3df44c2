import Foundation
import Testing
import Tracking
@testable import DataQuality

@Suite("Duplicates")
struct DuplicateDetectorTests {
    private let start = Date(timeIntervalSince1970: 1_800_000_000)

    private func event(at offset: TimeInterval, userData: UserData = ["sku": "A1"], id: UUID = UUID()) -> TrackedEvent {
        TrackedEvent(id: id, timestamp: start.addingTimeInterval(offset), category: "Wishlist", name: "item", action: "add", userData: userData)
    }

    @Test func sameContentWithinTheWindowIsFlaggedNamingTheEarlierEvent() throws {
        let detector = DuplicateDetector(window: 1)
        let original = event(at: 0)
        #expect(detector.processed(original)?.flags.isEmpty == true)
        let repeated = try #require(detector.processed(event(at: 0.4)))
        #expect(repeated.flags == [EventFlag(code: "duplicate", detail: original.id.uuidString.lowercased())])
    }

    @Test func theWindowIsMeasuredFromTheFirstOfARun() throws {
        let detector = DuplicateDetector(window: 1)
        let original = event(at: 0)
        _ = detector.processed(original)
        #expect(detector.processed(event(at: 0.999))?.hasFlag("duplicate") == true)
        let later = event(at: 1.0)
        #expect(detector.processed(later)?.flags.isEmpty == true) // exactly the window: not a duplicate
        #expect(detector.processed(event(at: 1.5))?.flags.first?.detail == later.id.uuidString.lowercased())
    }

    @Test func differentDataOrNamesAreNotDuplicates() {
        let detector = DuplicateDetector(window: 1)
        _ = detector.processed(event(at: 0))
        #expect(detector.processed(event(at: 0.1, userData: ["sku": "B2"]))?.flags.isEmpty == true)
        var other = event(at: 0.2)
        other.action = "remove"
        #expect(detector.processed(other)?.flags.isEmpty == true)
    }

    @Test func theSameIDTwiceIsFlagged() throws {
        let detector = DuplicateDetector(window: 1)
        let id = UUID()
        _ = detector.processed(event(at: 0, id: id))
        let again = try #require(detector.processed(event(at: 10, userData: ["other": 1], id: id)))
        #expect(again.flags == [EventFlag(code: "duplicate_id", detail: id.uuidString.lowercased())])
    }

    @Test func memoryIsBounded() {
        let detector = DuplicateDetector(window: 100, capacity: 10)
        let first = event(at: 0, userData: ["n": 0])
        _ = detector.processed(first)
        for index in 1...50 { _ = detector.processed(event(at: Double(index) / 100, userData: ["n": .int(index)])) }
        // The first event has been forgotten: neither its content nor its id are flagged any more.
        #expect(detector.processed(first)?.flags.isEmpty == true)
        // A recent one is still remembered.
        #expect(detector.processed(event(at: 0.6, userData: ["n": 50]))?.hasFlag("duplicate") == true)
    }

    @Test func duplicatesAreDeliveredAndReported() throws {
        let diagnostics = Diagnostics()
        let detector = DuplicateDetector(window: 1, diagnostics: diagnostics)
        _ = detector.processed(event(at: 0))
        #expect(detector.processed(event(at: 0.1)) != nil)
        #expect(diagnostics.snapshot().recentIssues.map(\.code) == ["duplicate"])
    }

    @Test func concurrentSendersAreSafe() async {
        let detector = DuplicateDetector(window: 1, capacity: 100)
        await withTaskGroup(of: Int.self) { group in
            for worker in 0..<4 {
                group.addTask {
                    var flagged = 0
                    for index in 0..<500 where detector.processed(event(at: Double(index) / 1000, userData: ["w": .int(worker), "i": .int(index % 5)]))?.hasFlag("duplicate") == true {
                        flagged += 1
                    }
                    return flagged
                }
            }
            var total = 0
            for await count in group { total += count }
            #expect(total > 0)
        }
    }

    @Test func aReportedDuplicateShowsNoSensitiveValueAtAnyDepth() throws {
        let diagnostics = Diagnostics()
        let detector = DuplicateDetector(window: 1, diagnostics: diagnostics, redactedFields: ["Email"])
        let data: UserData = ["sku": "A1", "buyer": ["email": "ada@example.com", "list": [["EMAIL": "b@example.com"]]]]
        _ = detector.processed(event(at: 0, userData: data))
        let repeated = try #require(detector.processed(event(at: 0.5, userData: data)))
        #expect(repeated.hasFlag("duplicate"))
        #expect(repeated.userData == data)
        let message = try #require(diagnostics.snapshot().recentIssues.first { $0.code == "duplicate" }?.message)
        #expect(message.contains("(redacted)") && message.contains("A1"))
        #expect(!message.contains("ada@example.com") && !message.contains("b@example.com"))
    }
}
