import Foundation
import Testing
import Tracking
import TrackingTestKit
@testable import DataQuality

/// A clock a test moves by hand.
final class ManualClock: Sendable {
    private let current: LockedValue<Date>
    init(_ start: Date = Date(timeIntervalSince1970: 1_800_000_000)) { current = LockedValue(start) }
    var now: Date { current.withLock { $0 } }
    func advance(_ seconds: TimeInterval) { current.withLock { $0 = $0.addingTimeInterval(seconds) } }
}

/// Collects diagnostics updates.
final class UpdateLog: Sendable {
    private let updates = LockedValue<[Diagnostics.Update]>([])
    func append(_ update: Diagnostics.Update) { updates.withLock { $0.append(update) } }
    var all: [Diagnostics.Update] { updates.withLock { $0 } }
}

@Suite("Diagnostics")
struct DiagnosticsTests {
    @Test func countersAndIssuesAreObservableBySnapshotAndCallback() {
        let diagnostics = Diagnostics(recentLimit: 2)
        let log = UpdateLog()
        let token = diagnostics.observe { log.append($0) }
        diagnostics.increment(.persisted, by: 3)
        diagnostics.increment(.delivered)
        diagnostics.record(.storage, code: "disk_full", message: "no space left")
        diagnostics.record(.delivery, code: "http_500", message: "server error")
        diagnostics.record(.delivery, code: "http_503", message: "unavailable")
        let snapshot = diagnostics.snapshot()
        #expect(snapshot.count(.persisted) == 3)
        #expect(snapshot.count(.delivered) == 1)
        #expect(snapshot.count(.evicted) == 0)
        #expect(snapshot.issues(.delivery) == 2 && snapshot.issues(.storage) == 1)
        #expect(snapshot.recentIssues.map(\.code) == ["http_500", "http_503"])
        #expect(snapshot.description.contains("persisted=3"))
        #expect(log.all.count == 5)
        #expect(log.all.first == .counted(.persisted, amount: 3))
        diagnostics.removeObserver(token)
        diagnostics.increment(.sent)
        #expect(log.all.count == 5)
        diagnostics.reset()
        #expect(diagnostics.snapshot() == DiagnosticsSnapshot())
    }

    @Test func countingIsThreadSafe() async {
        let diagnostics = Diagnostics()
        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<4 { group.addTask { for _ in 0..<1000 { diagnostics.increment(.persisted) } } }
        }
        #expect(diagnostics.snapshot().count(.persisted) == 4000)
    }

    @Test func theTallyCountsSentAndFlaggedEvents() {
        let diagnostics = Diagnostics()
        let tally = DiagnosticsTally(diagnostics)
        _ = tally.processed(TrackedEvent(category: "C", name: "n", action: "a"))
        _ = tally.processed(TrackedEvent(category: "C", name: "n", action: "a", flags: [EventFlag(code: "duplicate")]))
        #expect(diagnostics.snapshot().count(.sent) == 2)
        #expect(diagnostics.snapshot().count(.flagged) == 1)
    }

    @Test func theTokenBucketAllowsABurstThenTheRate() {
        let start = Date(timeIntervalSince1970: 0)
        var bucket = TokenBucket(capacity: 3, refillPerSecond: 0.5)
        func takes(at offset: TimeInterval, _ count: Int = 1) -> Int {
            var taken = 0
            for _ in 0..<count where bucket.take(at: start.addingTimeInterval(offset)) { taken += 1 }
            return taken
        }
        #expect(takes(at: 0, 4) == 3)      // the burst
        #expect(takes(at: 1.9) == 0)       // 0.95 tokens: not yet
        #expect(takes(at: 2) == 1)         // exactly one token after 2 s at 0.5/s
        #expect(takes(at: 2) == 0)
        #expect(takes(at: 1000, 10) == 3)  // a long pause refills to capacity, never beyond
        #expect(takes(at: 0) == 0)         // a clock stepping back adds nothing
    }

    @Test func issuesBecomeRateLimitedEventsOfTheirOwn() throws {
        let clock = ManualClock()
        let recorder = RecordingPlugin()
        let diagnostics = Diagnostics()
        let reporter = DiagnosticEventForwarder(
            plugins: [recorder], burst: 2, perMinute: 6, now: { clock.now }
        )
        reporter.attach(to: diagnostics)
        for index in 0..<5 { diagnostics.record(.storage, code: "write_failed", message: "attempt \(index)") }
        #expect(recorder.events.count == 2)
        #expect(reporter.suppressedCount == 3)
        let event = try #require(recorder.events.first)
        #expect(event.category == "Tracking" && event.name == "error" && event.action == "storage")
        #expect(event.userData["code"] == "write_failed" && event.userData["message"] == "attempt 0")
        clock.advance(9.9)
        diagnostics.record(.delivery, code: "http_500", message: "x")
        #expect(recorder.events.count == 2)
        clock.advance(0.1) // 10 s at 6 per minute: one token back
        diagnostics.record(.delivery, code: "http_500", message: "y")
        #expect(recorder.events.count == 3)
        #expect(recorder.events.last?.action == "delivery")
    }

    @Test func issuesRaisedWhileReportingAreNotReportedAgain() {
        let diagnostics = Diagnostics()
        let recorder = RecordingPlugin()
        // A contract that flags every Tracking event: the validator reports an issue while the
        // diagnostics event is being sent; it must not loop.
        let contract = DataContract(categories: ["Tracking": CategoryContract()])
        let validator = ContractValidator(contract, diagnostics: diagnostics)
        let reporter = DiagnosticEventForwarder(plugins: [recorder], processors: [validator], burst: 100)
        reporter.attach(to: diagnostics)
        diagnostics.record(.storage, code: "write_failed", message: "x")
        #expect(recorder.events.count == 1)
        #expect(recorder.events[0].hasFlag("unknown_field"))
        #expect(reporter.suppressedCount == 2) // the two unknown fields of the diagnostics event
    }
}
