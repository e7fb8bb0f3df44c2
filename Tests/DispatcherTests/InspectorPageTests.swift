import Foundation
import Testing
@testable import Dispatcher

/// The inspector's page as the server sends it: one self-contained document whose only script and
/// style carry the response's nonce, that writes no markup from data and has the element ids the
/// browser test (`Tests/Browser/inspector_browser_test.py`) relies on.
@Suite struct InspectorPageTests {
    @Test func theOnlyScriptAndStyleCarryTheNonce() {
        let html = InspectorPage.html(nonce: "QUJDRA+/x_-=")
        #expect(html.components(separatedBy: "<script").count == 2)
        #expect(html.components(separatedBy: "<style").count == 2)
        #expect(html.contains(#"<script nonce="QUJDRA+/x_-=">"#))
        #expect(html.contains(#"<style nonce="QUJDRA+/x_-=">"#))
        #expect(!html.contains("{{"), "a placeholder was left in the document")
        #expect(html.hasPrefix("<!doctype html>") && html.hasSuffix("</html>"))
    }

    @Test func aNonceCannotLeaveItsAttribute() {
        let html = InspectorPage.html(nonce: #"n0" onerror(x)<b>"#)
        #expect(html.contains(#"<script nonce="n0onerrorxb">"#))
        #expect(!html.contains(#"" onerror"#))
        #expect(!html.contains("<b>"))
    }

    @Test func loadsNothingFromElsewhere() {
        let html = InspectorPage.html(nonce: "n")
        for external in ["://", " src=", " href=", "url(", "@import", "@font-face"] {
            #expect(!html.contains(external), "the page refers to \(external)")
        }
        #expect(!html.contains(" style="), "an inline style attribute, which the CSP refuses")
    }

    @Test func theScriptWritesNoMarkupFromData() {
        for sink in ["innerHTML", "outerHTML", "insertAdjacentHTML", "document.write", "eval(", "Function(", "setAttribute"] {
            #expect(!InspectorPage.script.contains(sink), "the script uses \(sink)")
        }
        #expect(InspectorPage.script.contains("new EventSource('/api/stream')"))
        #expect(InspectorPage.script.contains("fetch('/api/events/' + encodeURIComponent(id)"))
    }

    @Test func hasTheElementIdsOfTheContract() {
        let html = InspectorPage.html(nonce: "n")
        let ids = [
            "events", "filter-category", "filter-status", "filter-flag", "search", "count-good", "count-flagged",
            "detail", "detail-timeline", "detail-wire", "detail-userdata", "detail-receipts", "health", "counter-sent",
            "counter-persisted", "counter-delivered", "counter-refused", "counter-evicted", "counter-rejected",
            "counter-retried", "counter-flagged", "queue-depth", "queue-bytes", "paused", "diagnostics", "chart",
            "export-json", "export-csv",
        ]
        for id in ids {
            #expect(html.components(separatedBy: #"id="\#(id)""#).count == 2, "id \(id) is missing or repeated")
        }
        #expect(html.contains(#"<canvas id="chart""#))
        #expect(html.contains(#"<tbody id="events">"#))
    }
}
