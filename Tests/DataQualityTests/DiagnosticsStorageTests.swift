import Foundation
import Testing
import Tracking
@testable import DataQuality

@Suite("Diagnostics storage")
struct DiagnosticsStorageTests {
    @Test func slotsAreThePositionsOfTheCases() {
        #expect(DiagnosticsCounter.allCases.map(\.slot) == Array(DiagnosticsCounter.allCases.indices))
        #expect(DiagnosticIssue.Kind.allCases.map(\.slot) == Array(DiagnosticIssue.Kind.allCases.indices))
    }

    @Test func theLatestIssuesAreKeptOldestFirstAcrossManyWraps() {
        let diagnostics = Diagnostics(recentLimit: 3)
        for index in 0..<10 { diagnostics.record(.storage, code: "c\(index)", message: "m\(index)") }
        let snapshot = diagnostics.snapshot()
        #expect(snapshot.recentIssues.map(\.code) == ["c7", "c8", "c9"])
        #expect(snapshot.issues(.storage) == 10)
    }

    @Test func batchesCountEachIssueAndAreTrimmedFromTheirOldestIssue() {
        let diagnostics = Diagnostics(recentLimit: 3)
        diagnostics.record(.storage, code: "a", message: "a")
        diagnostics.record(TestBatch(codes: ["b0", "b1", "b2", "b3"]))
        #expect(diagnostics.snapshot().recentIssues.map(\.code) == ["b1", "b2", "b3"])
        diagnostics.record(.storage, code: "c", message: "c")
        diagnostics.record(TestBatch(codes: []))
        let snapshot = diagnostics.snapshot()
        #expect(snapshot.recentIssues.map(\.code) == ["b2", "b3", "c"])
        #expect(snapshot.issues(.validation) == 4 && snapshot.issues(.storage) == 2)
        for round in 0..<20 { diagnostics.record(TestBatch(codes: ["r\(round)a", "r\(round)b"])) }
        #expect(diagnostics.snapshot().recentIssues.map(\.code) == ["r18b", "r19a", "r19b"])
    }

    @Test func observersHearEachIssueOfABatch() {
        let diagnostics = Diagnostics()
        let heard = HeardCodes()
        let token = diagnostics.observe { update in if case .issue(let issue) = update { heard.append(issue.code) } }
        diagnostics.record(TestBatch(codes: ["x", "y"]))
        diagnostics.removeObserver(token)
        #expect(heard.all == ["x", "y"])
    }

    @Test func aMessageWrittenOnReadEqualsTheTextItStandsFor() throws {
        let event = TrackedEvent(category: "C", name: "n", action: "a", userData: ["k": 1])
        let lazy = DiagnosticIssue(kind: .validation, code: "duplicate", text: .repeated(RepeatedEvent(event, detail: "x")), eventID: event.id, timestamp: event.timestamp)
        let plain = DiagnosticIssue(kind: .validation, code: "duplicate", message: "C/n/a {\"k\":1} repeats x", eventID: event.id, timestamp: event.timestamp)
        #expect(lazy.message == plain.message && lazy == plain)
        let decoded = try JSONDecoder().decode(DiagnosticIssue.self, from: JSONEncoder().encode(lazy))
        #expect(decoded == plain)
    }

    @Test func touchedCountersAppearEvenAtZeroAndResetForgetsThem() {
        let diagnostics = Diagnostics()
        diagnostics.increment(.sent, by: 2)
        diagnostics.increment(.sent, by: -2)
        diagnostics.increment(.sent, and: .flagged)
        #expect(diagnostics.snapshot().counters == [.sent: 1, .flagged: 1])
        diagnostics.reset()
        #expect(diagnostics.snapshot() == DiagnosticsSnapshot())
    }
}

private struct TestBatch: DiagnosticIssueBatch {
    let codes: [String]
    var kind: DiagnosticIssue.Kind { .validation }
    var count: Int { codes.count }
    func issue(at index: Int) -> DiagnosticIssue {
        DiagnosticIssue(kind: .validation, code: codes[index], message: codes[index], timestamp: Date(timeIntervalSince1970: 0))
    }
}

private final class HeardCodes: Sendable {
    private let codes = LockedValue<[String]>([])
    func append(_ code: String) { codes.withLock { $0.append(code) } }
    var all: [String] { codes.withLock { $0 } }
}
