import Foundation
import Testing
import Tracking
import TrackingTestKit

/// The stage before plugins: enrich, rewrite, filter.
struct ProcessorTests {
    @Test func processorsEnrichEventsInOrderBeforeThePluginsSeeThem() throws {
        let recorder = RecordingPlugin()
        let addApp = ClosureProcessor { event in
            var enriched = event
            enriched.context["app"] = "demo"
            return enriched
        }
        let tagStep = ClosureProcessor { event in
            var enriched = event
            enriched.context["sawApp"] = .bool(event.context["app"] != nil)
            return enriched
        }
        EventReporter<Cart>(plugins: [recorder], processors: [addApp, tagStep]).send(name: .add, action: .select)
        let event = try #require(recorder.events.first)
        #expect(event.context == ["app": "demo", "sawApp": true])
    }

    @Test func aProcessorReturningNilStopsTheEventBeforeEveryPlugin() {
        let recorder = RecordingPlugin()
        let counter = CountingPlugin()
        let later = CountingProcessor()
        let dropCheckout = ClosureProcessor { $0.name == "checkout" ? nil : $0 }
        let reporter = EventReporter<Cart>(plugins: [recorder, counter], processors: [dropCheckout, later])

        let receipts = reporter.send(name: .checkout, action: .pay)
        #expect(receipts.isEmpty)
        #expect(recorder.events.isEmpty)
        #expect(counter.calls == 0)
        #expect(later.calls == 0)

        reporter.send(name: .add, action: .select)
        #expect(recorder.events.map(\.name) == ["add"])
        #expect(counter.calls == 1)
        #expect(later.calls == 1)
    }

    @Test func aProcessorCanRewriteData() throws {
        let recorder = RecordingPlugin()
        let redact = ClosureProcessor { event in
            var redacted = event
            if redacted.userData["email"] != nil { redacted.userData["email"] = "<redacted>" }
            return redacted
        }
        EventReporter<Cart>(plugins: [recorder], processors: [redact]).send(name: .add, action: .select, userData: ["email": "a@b.c"])
        #expect(try #require(recorder.events.first).userData["email"] == "<redacted>")
    }

    @Test func noOpPluginIgnoresEverything() {
        let receipts = EventReporter<Cart>(plugins: [NoOpPlugin()]).send(name: .add, action: .select)
        #expect(receipts.isEmpty)
    }
}

/// A processor that counts the events it saw and passes them on.
final class CountingProcessor: EventProcessor {
    private let count = LockedValue(0)

    /// How many events it processed.
    var calls: Int { count.withLock { $0 } }

    func process(_ event: inout TrackedEvent) -> Bool {
        count.withLock { $0 += 1 }
        return true
    }
}
