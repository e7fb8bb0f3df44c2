@testable import Dispatcher
import Foundation
import Testing

@Suite("EventTimeline: a bounded ring of batch entries")
struct EventTimelineTests {
    private static func ids(_ count: Int) -> [UUID] { (0..<count).map { _ in UUID() } }

    @Test("Each event's steps come back oldest first, whatever batch recorded them")
    func stepsInOrder() {
        let timeline = EventTimeline(capacity: 100)
        let batch = Self.ids(10)
        timeline.record(TimelineStep(kind: .persisted), for: batch)
        timeline.record(TimelineStep(kind: .attempt, attempt: 1, detail: "HTTP 503 retry"), for: Array(batch[0..<5]))
        timeline.record(TimelineStep(kind: .attempt, attempt: 2, detail: "HTTP 200 delivered"), for: Array(batch[0..<5]))
        timeline.record(TimelineStep(kind: .delivered), for: Array(batch[0..<5]))
        #expect(timeline.steps(of: batch[0]).map(\.kind) == [.persisted, .attempt, .attempt, .delivered])
        #expect(timeline.steps(of: batch[0]).compactMap(\.attempt) == [1, 2])
        #expect(timeline.steps(of: batch[9]).map(\.kind) == [.persisted])
        #expect(timeline.steps(of: UUID()).isEmpty)
        #expect(timeline.all().count == 10)
    }

    @Test("Keeps the last N persisted events' timelines and forgets older ones, even inside a batch")
    func forgetsOlderEvents() {
        let timeline = EventTimeline(capacity: 25)
        let batches = (0..<4).map { _ in Self.ids(10) }
        for batch in batches {
            timeline.record(TimelineStep(kind: .persisted), for: batch)
            timeline.record(TimelineStep(kind: .delivered), for: batch)
        }
        // 40 persisted, 25 kept: the first batch and half of the second are forgotten.
        for id in batches[0] + batches[1][0..<5] { #expect(timeline.steps(of: id).isEmpty) }
        for id in batches[1][5...] + batches[2] + batches[3] {
            #expect(timeline.steps(of: id).map(\.kind) == [.persisted, .delivered])
        }
        let all = timeline.all()
        #expect(all.count == 25)
        #expect(all[batches[0][0]] == nil && all[batches[3][9]] != nil)
    }

    @Test("Events recovered from an earlier session (no persisted step) keep their steps until the ring moves on")
    func recoveredEvents() {
        let timeline = EventTimeline(capacity: 10)
        let recovered = Self.ids(3)
        timeline.record(TimelineStep(kind: .attempt, attempt: 2), for: recovered)
        timeline.record(TimelineStep(kind: .delivered), for: recovered)
        #expect(timeline.steps(of: recovered[1]).map(\.kind) == [.attempt, .delivered])
        timeline.record(TimelineStep(kind: .persisted), for: Self.ids(10))
        #expect(timeline.steps(of: recovered[1]).isEmpty, "10 newer events fill the window")
    }

    @Test("Holds at most maximumStepsPerEvent × capacity ids, however many retries are recorded")
    func boundedUnderEndlessRetries() {
        let timeline = EventTimeline(capacity: 4)
        let events = Self.ids(4)
        timeline.record(TimelineStep(kind: .persisted), for: events)
        for attempt in 1...100 { timeline.record(TimelineStep(kind: .attempt, attempt: attempt), for: events) }
        let steps = timeline.steps(of: events[0])
        #expect(steps.count == EventTimeline.maximumStepsPerEvent)
        #expect(steps.last?.attempt == 100, "the most recent steps are the ones kept")
    }

    @Test("removeAll forgets everything; recording starts again")
    func removeAll() {
        let timeline = EventTimeline(capacity: 10)
        let batch = Self.ids(3)
        timeline.record(TimelineStep(kind: .persisted), for: batch)
        timeline.removeAll()
        #expect(timeline.steps(of: batch[0]).isEmpty && timeline.all().isEmpty)
        timeline.record(TimelineStep(kind: .persisted), for: batch)
        #expect(timeline.steps(of: batch[0]).map(\.kind) == [.persisted])
    }
}
