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
