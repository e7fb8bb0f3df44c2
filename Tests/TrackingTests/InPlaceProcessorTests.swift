import Foundation
import Testing
import Tracking
import TrackingTestKit

private enum Basket: EventType {
    enum Name: String, Sendable { case add }
    enum Action: String, Sendable { case tap }
}

/// Adds a flag in place, and stops events of category "Stop".
private struct FlaggingStage: InPlaceEventProcessor {
    func processInPlace(_ event: inout TrackedEvent) -> Bool {
        guard event.category != "Stop" else { return false }
        event.flag(EventFlag(code: "seen"))
        return true
    }
}

/// Adds a flag through the by-value requirement only.
private struct ByValueStage: EventProcessor {
    func process(_ event: TrackedEvent) -> TrackedEvent? {
        var copy = event
        copy.flag(EventFlag(code: "by_value"))
        return copy
    }
}

@Suite("In-place processors")
struct InPlaceProcessorTests {
    @Test func anInPlaceStageAlsoWorksByValue() {
        let stage = FlaggingStage()
        let original = TrackedEvent(category: "C", name: "n", action: "a")
        #expect(stage.process(original)?.flags == [EventFlag(code: "seen")])
        #expect(original.flags.isEmpty)
        #expect(stage.process(TrackedEvent(category: "Stop", name: "n", action: "a")) == nil)
    }

    @Test func aByValueStageAlsoWorksInPlace() {
        var event = TrackedEvent(category: "C", name: "n", action: "a")
        #expect(ByValueStage().processInPlace(&event))
        #expect(event.flags == [EventFlag(code: "by_value")])
    }

    @Test func theReporterRunsBothKindsInOrderAndStopsWhereAStageSaysSo() {
        let recorder = RecordingPlugin()
        let reporter = EventReporter<Basket>(plugins: [recorder], processors: [ByValueStage(), FlaggingStage(), ClosureProcessor { $0 }])
        let receipts = reporter.send(name: .add, action: .tap)
        #expect(receipts.count == 1)
        #expect(recorder.events.map { $0.flags.map(\.code) } == [["by_value", "seen"]])
        let stopping = EventReporter<Basket>(plugins: [recorder], processors: [ClosureProcessor { _ in nil }, FlaggingStage()])
        #expect(stopping.send(name: .add, action: .tap).isEmpty)
        #expect(recorder.events.count == 1)
    }
}
