import Foundation
import Testing
import Tracking
import TrackingTestKit

/// A plugin that overrides the batch requirement and counts its calls.
private final class BatchCountingPlugin: EventReporterPlugin, Sendable {
    private let batches = LockedValue<[[TrackedEvent]]>([])
    private let singles = LockedValue(0)

    var batchCalls: [[TrackedEvent]] { batches.withLock { $0 } }
    var singleCalls: Int { singles.withLock { $0 } }

    func send(_ event: TrackedEvent) -> Receipt? {
        singles.withLock { $0 += 1 }
        return Receipt(plugin: "batch", eventID: event.id, form: "single")
    }

    func send(contentsOf events: [TrackedEvent]) -> [Receipt] {
        batches.withLock { $0.append(events) }
        return events.map { Receipt(plugin: "batch", eventID: $0.id, form: "batch") }
    }
}

@Suite("Sending several events at once")
struct BatchSendTests {
    @Test("EventReporter.send(contentsOf:) reaches a plugin's own batch implementation")
    func batchReachesTheOverride() {
        let plugin = BatchCountingPlugin()
        let reporter = EventReporter<Cart>(plugins: [plugin])
        let receipts = reporter.send(contentsOf: [
            (name: .add, action: .select, userData: [:]),
            (name: .checkout, action: .pay, userData: ["quantity": 2]),
        ])
        #expect(plugin.batchCalls.count == 1)
        #expect(plugin.batchCalls.first?.map(\.name) == ["add", "checkout"])
        #expect(plugin.singleCalls == 0)
        #expect(receipts.map(\.form) == ["batch", "batch"])
    }

    @Test("the batch path still runs processors and validation per event; the default goes one by one")
    func processorsAndDefault() {
        let batching = BatchCountingPlugin()
        let recorder = RecordingPlugin()
        let dropAdds = ClosureProcessor { $0.name == "add" ? nil : $0 }
        let tag = ClosureProcessor { event in
            var tagged = event
            tagged.context["tagged"] = true
            return tagged
        }
        let reporter = EventReporter<Cart>(plugins: [batching, recorder], processors: [dropAdds, tag],
                                           violationHandler: .silent)
        let receipts = reporter.send(contentsOf: [
            (name: .add, action: .select, userData: [:]),
            (name: .checkout, action: .pay, userData: [:]),
            (name: .payment, action: .pay, userData: [:]),
        ])
        let batch = batching.batchCalls
        #expect(batch.count == 1)
        #expect(batch.first?.map(\.name) == ["checkout", "payment"])
        #expect(batch.first?.allSatisfy { $0.context["tagged"] == true } == true)
        #expect(batch.first?.last?.flags == [EventFlag.invalidPair(name: "payment", action: "pay")])
        #expect(recorder.events.map(\.name) == ["checkout", "payment"])
        #expect(receipts.count == 4)
    }
}
