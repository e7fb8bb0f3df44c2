@testable import DataQuality
import Foundation
import Testing
import TestSupport
import Tracking

/// Sessions expire by idle time that clock steps cannot freeze or stretch, and a clean restart
/// continues the event index.
@Suite("Sessions across clock steps and clean restarts")
struct SessionClockStepTests {
    let eightDays: TimeInterval = 8 * 86_400

    /// A wall clock set by hand beside a forward-only clock moved by hand: `pass` moves both,
    /// `setDate` moves only the wall clock, as a person setting the date does.
    final class Clocks: Sendable {
        private let wall = LockedValue(Date(timeIntervalSince1970: 1_800_000_000))
        private let steady = LockedValue<TimeInterval>(1_000)
        var now: Date { wall.withLock { $0 } }
        var steadyNow: TimeInterval { steady.withLock { $0 } }
        func pass(_ seconds: TimeInterval) {
            wall.withLock { $0 += seconds }
            steady.withLock { $0 += seconds }
        }
        func setDate(by seconds: TimeInterval) { wall.withLock { $0 += seconds } }
    }

    func tracker(_ store: any IdentityStore, _ clocks: Clocks, timeout: TimeInterval = 1800) -> SessionTracker {
        SessionTracker(store: store, foregroundTimeout: timeout, backgroundTimeout: timeout, persistInterval: 5,
                       diagnostics: nil, wallClock: { clocks.now }, steadyClock: { clocks.steadyNow })
    }

    @Test("A clock set 8 days ahead mid-session neither ends it nor keeps it from expiring")
    func clockSetAheadMidSession() {
        let clocks = Clocks()
        let sessions = tracker(InMemoryIdentityStore(), clocks)
        let first = sessions.nextEvent(at: clocks.now, id: UUID())
        clocks.pass(60)
        clocks.setDate(by: eightDays)
        #expect(sessions.nextEvent(at: clocks.now, id: UUID()).sessionID == first.sessionID)
        clocks.pass(1_800)
        #expect(sessions.nextEvent(at: clocks.now, id: UUID()).isNewSession, "30 minutes idle end it")
    }

    @Test("A session started with the clock 8 days ahead expires after the timeout once the clock is corrected")
    func sessionStartedAheadExpiresAfterCorrection() {
        let clocks = Clocks()
        clocks.setDate(by: eightDays)
        let sessions = tracker(InMemoryIdentityStore(), clocks)
        let first = sessions.nextEvent(at: clocks.now, id: UUID())
        clocks.pass(60)
        clocks.setDate(by: -eightDays)
        let corrected = sessions.nextEvent(at: clocks.now, id: UUID())
        #expect(corrected.sessionID == first.sessionID && corrected.eventIndex == 2, "a minute idle continues it")
        clocks.pass(1_799)
        #expect(sessions.nextEvent(at: clocks.now, id: UUID()).sessionID == first.sessionID)
        clocks.pass(1_800)
        let later = sessions.nextEvent(at: clocks.now, id: UUID())
        #expect(later.isNewSession && later.previousSessionID == first.sessionID, "30 minutes idle end it")
    }

    @Test("A clock set back during an idle period does not stretch the session")
    func clockSetBackDoesNotStretch() {
        let clocks = Clocks()
        let sessions = tracker(InMemoryIdentityStore(), clocks)
        let first = sessions.nextEvent(at: clocks.now, id: UUID())
        clocks.pass(1_500)
        clocks.setDate(by: -1_000)
        clocks.pass(400)
        let next = sessions.nextEvent(at: clocks.now, id: UUID())
        #expect(next.isNewSession && next.previousSessionID == first.sessionID, "1,900 s idle, 900 s by the wall clock")
    }

    @Test("After a restart, a last event stamped 8 days ahead does not freeze the session")
    func restartAfterCorrectionRollsOver() throws {
        let folder = try TemporaryDirectory(prefix: "session-clock-restart")
        defer { folder.remove() }
        let file = folder.file("identity.json")
        let clocks = Clocks()
        clocks.setDate(by: eightDays)
        let ahead = tracker(try FileIdentityStore(url: file), clocks)
        let first = ahead.nextEvent(at: clocks.now, id: UUID())
        ahead.persist()
        clocks.pass(3_600)
        clocks.setDate(by: -eightDays)
        let restarted = tracker(try FileIdentityStore(url: file), clocks)
        let next = restarted.nextEvent(at: clocks.now, id: UUID())
        #expect(next.isNewSession && next.sessionIndex == 2 && next.previousSessionID == first.sessionID)
    }

    @Test("A clean restart within the timeout continues the event index")
    func cleanRestartContinuesTheEventIndex() throws {
        let folder = try TemporaryDirectory(prefix: "session-clean-restart")
        defer { folder.remove() }
        let file = folder.file("identity.json")
        let clocks = Clocks()
        let before = tracker(try FileIdentityStore(url: file), clocks)
        var last = before.nextEvent(at: clocks.now, id: UUID())
        for _ in 0..<4 {
            clocks.pass(0.1)
            last = before.nextEvent(at: clocks.now, id: UUID())
        }
        #expect(last.eventIndex == 5)
        before.persist() // what a clean close does
        clocks.pass(10)
        let after = tracker(try FileIdentityStore(url: file), clocks)
        let next = after.nextEvent(at: clocks.now, id: UUID())
        #expect(next.sessionID == last.sessionID && next.eventIndex == 6)
    }
}
