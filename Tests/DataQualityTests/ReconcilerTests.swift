import Foundation
import Testing
@testable import DataQuality
import TestSupport
import Tracking

@Suite("Reconciliation")
struct ReconcilerTests {
    private let ours = """
    {"id":"0195F1B2-0000-7000-8000-000000000001","category":"Cart","name":"add","action":"select","userData":{"quantity":2,"price":9.5},"sentAt":"x"}
    {"id":"0195f1b2-0000-7000-8000-000000000002","category":"Cart","name":"checkout","action":"pay","userData":{"quantity":1}}
    {"id":"0195f1b2-0000-7000-8000-000000000003","category":"Wishlist","name":"item","action":"add","userData":{}}

    {"id":"0195f1b2-0000-7000-8000-000000000003","category":"Wishlist","name":"item","action":"add","userData":{}}
    not json
    """

    private let theirs = """
    {"messageId":"0195f1b2-0000-7000-8000-000000000001","category":"Cart","name":"add","action":"select","userData":{"quantity":2.0,"price":9.5},"sentAt":"y"}
    {"eid":"0195f1b2-0000-7000-8000-000000000002","category":"Cart","name":"checkout","action":"buy","userData":{"quantity":1,"coupon":"ABC"}}
    {"id":"0195f1b2-0000-7000-8000-000000000004","category":"Basket","name":"view","action":"open"}
    {"noid":true}
    """

    @Test func reportsMissingExtraDifferingDuplicatedAndUnreadable() {
        let report = Reconciler().reconcile(ours: Data(ours.utf8), theirs: Data(theirs.utf8))
        #expect(report.matched == 2)
        #expect(report.extra == ["0195f1b2-0000-7000-8000-000000000003"])
        #expect(report.missing == ["0195f1b2-0000-7000-8000-000000000004"])
        #expect(report.duplicatedInOurs == ["0195f1b2-0000-7000-8000-000000000003"])
        #expect(report.differences == [
            .init(id: "0195f1b2-0000-7000-8000-000000000002", field: "action", ours: "\"pay\"", theirs: "\"buy\""),
            .init(id: "0195f1b2-0000-7000-8000-000000000002", field: "userData.coupon", ours: nil, theirs: "\"ABC\""),
        ])
        #expect(report.unreadable.map(\.description) == ["ours:6: not a JSON object", "theirs:4: no id (looked for id, messageId, eid)"])
        #expect(!report.isClean)
        let text = report.description
        #expect(text.contains("2 matched, 1 missing from ours, 1 extra in ours, 1 differing"))
        #expect(text.contains("userData.coupon: (absent) ≠ \"ABC\""))
    }

    @Test func identicalStreamsAreClean() {
        let report = Reconciler().reconcile(ours: Data(ours.utf8), theirs: Data(ours.utf8))
        #expect(report.missing.isEmpty && report.extra.isEmpty && report.differences.isEmpty)
        #expect(report.matched == 3)
    }

    @Test func comparedFieldsNarrowTheComparison() {
        let report = Reconciler(comparedFields: ["userData"]).reconcile(ours: Data(ours.utf8), theirs: Data(theirs.utf8))
        #expect(report.differences.map(\.field) == ["userData.coupon"])
    }

    @Test func aControlExportWithOtherFieldNamesIsMappedToOurs() {
        let control = """
        {"messageId":"0195f1b2-0000-7000-8000-000000000002","event":"checkout","properties":{"quantity":1},"category":"Cart","action":"pay"}
        """
        let mine = """
        {"id":"0195f1b2-0000-7000-8000-000000000002","name":"checkout","userData":{"quantity":3},"category":"Cart","action":"pay"}
        """
        let report = Reconciler(theirFieldNames: ["event": "name", "properties": "userData"])
            .reconcile(ours: Data(mine.utf8), theirs: Data(control.utf8))
        #expect(report.matched == 1)
        #expect(report.differences == [.init(id: "0195f1b2-0000-7000-8000-000000000002", field: "userData.quantity", ours: "3", theirs: "1")])
    }

    @Test func readsFiles() throws {
        let folder = try TemporaryDirectory(prefix: "DataQualityTests")
        defer { folder.remove() }
        let a = try folder.write(ours, to: "a.ndjson")
        let b = try folder.write(theirs, to: "b.ndjson")
        #expect(try Reconciler().reconcile(ours: a, theirs: b).matched == 2)
        #expect(throws: (any Error).self) { try Reconciler().reconcile(ours: a, theirs: folder.file("absent")) }
    }

    @Test func aReportPrintsNoControlCharacterFromTheFiles() {
        let ours = #"{"id":"a\u001b[2J\nforged","category":"C\u009b8m"}"# + "\n"
        let theirs = #"{"id":"b\u001b]0;title\u0007","category":"C"}"# + "\n"
        let text = Reconciler().reconcile(ours: Data(ours.utf8), theirs: Data(theirs.utf8)).description
        #expect(!text.unicodeScalars.contains { $0 != "\n" && TerminalText.isControl($0) }, "\(text.debugDescription)")
        #expect(text.contains("a\\u{1B}[2j\\nforged") && text.contains("b\\u{1B}]0;title\\u{7}"), "\(text)")
    }
}
