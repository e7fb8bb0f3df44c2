@testable import DataQuality
import Foundation
import Testing
@testable import Tracking

/// A reporter's wall-clock reading stands in for the session's own read of the system's wall
/// clock, and idle time is still measured on the forward-only clock.
@Suite("Sessions reuse the reporter's wall-clock reading")
struct SessionClockReadingTests {
    private enum Shop: EventType {
        enum Name: String, Sendable { case item }
        enum Action: String, Sendable { case add }
    }

    /// Clocks set by hand that count the wall clock's reads.
    final class Clocks: Sendable {
        let wall = LockedValue(Date(timeIntervalSince1970: 1_800_000_000))
        let steady = LockedValue<TimeInterval>(1_000)
        let wallReads = LockedValue(0)
    }

    private func tracker(_ clocks: Clocks, system: Bool) -> SessionTracker {
        SessionTracker(store: InMemoryIdentityStore(), foregroundTimeout: 1800, backgroundTimeout: 1800, persistInterval: 5,
                       diagnostics: nil,
                       wallClock: { clocks.wallReads.withLock { $0 += 1 }; return clocks.wall.withLock { $0 } },
                       steadyClock: { clocks.steady.withLock { $0 } }, wallClockIsSystem: system)
    }

    @Test func aReporterEventReadsNoWallClockAndAHandMadeOneReadsItOnce() throws {
        let clocks = Clocks()
        let hydrator = ContextHydrator(application: HydrationFixtures.shop, device: HydrationFixtures.linux,
                                       sessions: tracker(clocks, system: true))
        let reporter = EventReporter<Shop>(processors: [hydrator])
        let made = try #require(reporter.makeEvent(name: .item, action: .add, userData: [:]) as TrackedEvent?)
        #expect(made.clockReading == made.timestamp)
        let before = clocks.wallReads.withLock { $0 }
        for _ in 0..<5 { reporter.send(name: .item, action: .add) }
        #expect(clocks.wallReads.withLock { $0 } == before)
        _ = hydrator.processed(TrackedEvent(category: "Shop", name: "item", action: "add"))
        #expect(clocks.wallReads.withLock { $0 } == before + 1)
    }

    @Test func anInjectedWallClockIsStillReadForAReporterEvent() {
        let clocks = Clocks()
        let hydrator = ContextHydrator(application: HydrationFixtures.shop, device: HydrationFixtures.linux,
                                       sessions: tracker(clocks, system: false))
        let reporter = EventReporter<Shop>(processors: [hydrator])
        let before = clocks.wallReads.withLock { $0 }
        for _ in 0..<3 { reporter.send(name: .item, action: .add) }
        #expect(clocks.wallReads.withLock { $0 } == before + 3)
    }

    @Test func idleTimeWithAReadingIsStillOnTheForwardOnlyClock() {
        let clocks = Clocks()
        let sessions = tracker(clocks, system: true)
        let start = Date(timeIntervalSince1970: 1_800_000_000)
        let first = sessions.nextEvent(at: start, id: UUID(), wallClockReading: start)
        // The date was set back 10 minutes while 31 minutes passed: the session expired.
        clocks.steady.withLock { $0 += 31 * 60 }
        let later = start.addingTimeInterval(-10 * 60)
        let next = sessions.nextEvent(at: later, id: UUID(), wallClockReading: later)
        #expect(next.isNewSession)
        #expect(next.sessionID != first.sessionID)
        // 29 minutes more with the date set 8 days ahead: the session goes on.
        clocks.steady.withLock { $0 += 29 * 60 }
        let ahead = later.addingTimeInterval(8 * 86_400)
        #expect(sessions.nextEvent(at: ahead, id: UUID(), wallClockReading: ahead).sessionID == next.sessionID)
        #expect(clocks.wallReads.withLock { $0 } == 0)
    }
}
