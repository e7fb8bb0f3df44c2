import Foundation
import Testing
import Tracking
import TrackingTestKit

/// Sending from many threads at once.
struct ConcurrencyTests {
    /// Runs `body(thread)` on `count` real threads at once and waits (at most 20 s) for all.
    func onThreads(_ count: Int, _ body: @escaping @Sendable (Int) -> Void) -> Bool {
        let group = DispatchGroup()
        for index in 0..<count {
            group.enter()
            let thread = Thread {
                body(index)
                group.leave()
            }
            thread.start()
        }
        return group.wait(timeout: .now() + 20) == .success
    }

    @Test func eightThreadsTimesAThousandSendsAreAllRecordedWithDistinctIds() throws {
        let recorder = RecordingPlugin()
        let reporter = EventReporter<Cart>(plugins: [recorder])
        let finished = onThreads(8) { thread in
            for index in 0..<1_000 {
                reporter.send(name: .add, action: .select, userData: ["thread": .int(thread), "index": .int(index)])
            }
        }
        #expect(finished)
        let events = recorder.events
        #expect(events.count == 8_000)
        #expect(Set(events.map(\.id)).count == 8_000)
        #expect(recorder.receipts.count == 8_000)
        for thread in 0..<8 {
            let indexes = events.filter { $0.userData["thread"] == .int(thread) }.compactMap { $0.userData["index"]?.intValue }
            #expect(indexes == Array(0..<1_000), "thread \(thread) events out of order or missing")
        }
    }

    @Test func aSlowPluginDoesNotLoseTheOtherPluginsEvents() {
        let slow = SlowPlugin(delay: 0.001)
        let recorder = RecordingPlugin()
        let reporter = EventReporter<Cart>(plugins: [slow, recorder])
        let finished = onThreads(8) { _ in
            for _ in 0..<50 { reporter.send(name: .add, action: .select) }
        }
        #expect(finished)
        #expect(recorder.events.count == 400)
        #expect(Set(recorder.events.map(\.id)).count == 400)
        #expect(slow.calls == 400)
    }

    @Test func consoleLinesFromManyThreadsNeverInterleave() {
        let buffer = TextBuffer()
        let reporter = EventReporter<Cart>(plugins: [ConsoleReporter(stream: buffer)])
        let finished = onThreads(8) { thread in
            for _ in 0..<200 { reporter.send(name: .add, action: .select, userData: ["thread": .int(thread)]) }
        }
        #expect(finished)
        let lines = buffer.lines
        #expect(lines.count == 1_600)
        #expect(lines.allSatisfy { $0.hasPrefix("[Cart] add · select  {\"thread\":") && $0.hasSuffix("}") })
    }
}

/// A plugin that takes `delay` seconds per event, like a vendor SDK plugin doing slow work inline.
final class SlowPlugin: EventReporterPlugin, Sendable {
    private let count = LockedValue(0)
    private let delay: TimeInterval

    init(delay: TimeInterval) { self.delay = delay }

    /// How many events it received.
    var calls: Int { count.withLock { $0 } }

    func send(_ event: TrackedEvent) -> Receipt? {
        Thread.sleep(forTimeInterval: delay)
        count.withLock { $0 += 1 }
        return Receipt(plugin: "slow", eventID: event.id, form: "")
    }
}
