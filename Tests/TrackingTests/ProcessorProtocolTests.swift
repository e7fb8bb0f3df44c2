import Foundation
import Testing
import Tracking
import TrackingTestKit

private enum Basket: EventType {
    enum Name: String, Sendable { case add }
    enum Action: String, Sendable { case tap }
}

/// The smallest processor there is: the one required method and nothing else. Adds a flag, and
/// stops events of category "Stop".
private struct FlaggingStage: EventProcessor {
    func process(_ event: inout TrackedEvent) -> Bool {
        guard event.category != "Stop" else { return false }
        event.flag(EventFlag(code: "seen"))
        return true
    }
}

/// A second minimal stage, to check the order stages run in.
private struct SecondStage: EventProcessor {
    func process(_ event: inout TrackedEvent) -> Bool {
        event.flag(EventFlag(code: "second"))
        return true
    }
}

@Suite("One processor protocol")
struct ProcessorProtocolTests {
    @Test func aMinimalConformanceRunsThroughARealReporter() {
        let recorder = RecordingPlugin()
        let reporter = EventReporter<Basket>(plugins: [recorder], processors: [FlaggingStage(), SecondStage()])
        let receipts = reporter.send(name: .add, action: .tap)
        #expect(receipts.count == 1)
        #expect(recorder.events.map { $0.flags.map(\.code) } == [["seen", "second"]])
        #expect(recorder.events.first?.category == "Basket")
    }

    @Test func aMinimalConformanceStopsEventsThroughARealReporter() {
        let recorder = RecordingPlugin()
        let reporter = EventReporter<Basket>(plugins: [recorder], processors: [ClosureProcessor { event in
            var stopped = event
            stopped.category = "Stop"
            return stopped
        }, FlaggingStage(), SecondStage()])
        #expect(reporter.send(name: .add, action: .tap).isEmpty)
        #expect(reporter.send(contentsOf: [(.add, .tap, [:])]).isEmpty)
        #expect(recorder.events.isEmpty)
    }

    @Test func theCopyReturningConvenienceLeavesTheOriginalAlone() {
        let stage = FlaggingStage()
        let original = TrackedEvent(category: "C", name: "n", action: "a")
        #expect(stage.processed(original)?.flags == [EventFlag(code: "seen")])
        #expect(original.flags.isEmpty)
        #expect(stage.processed(TrackedEvent(category: "Stop", name: "n", action: "a")) == nil)
    }

    @Test func aClosureProcessorWorksInPlaceAndInTheReporter() {
        var event = TrackedEvent(category: "C", name: "n", action: "a")
        let rename = ClosureProcessor { event in
            var copy = event
            copy.name = "renamed"
            return copy
        }
        #expect(rename.process(&event))
        #expect(event.name == "renamed")
        #expect(!ClosureProcessor { _ in nil }.process(&event))

        let recorder = RecordingPlugin()
        let reporter = EventReporter<Basket>(plugins: [recorder], processors: [rename, FlaggingStage(), ClosureProcessor { $0 }])
        #expect(reporter.send(name: .add, action: .tap).count == 1)
        #expect(recorder.events.map(\.name) == ["renamed"])
        #expect(recorder.events.map { $0.flags.map(\.code) } == [["seen"]])
        let stopping = EventReporter<Basket>(plugins: [recorder], processors: [ClosureProcessor { _ in nil }, FlaggingStage()])
        #expect(stopping.send(name: .add, action: .tap).isEmpty)
        #expect(recorder.events.count == 1)
    }
}
