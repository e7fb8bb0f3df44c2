import Foundation
import Testing
@testable import DataQuality

@Suite("Session state with injected time")
struct SessionStateTests {
    private let start = Date(timeIntervalSince1970: 1_800_000_000)
    private func at(_ seconds: TimeInterval) -> Date { start.addingTimeInterval(seconds) }

    @Test func theFirstEventStartsSessionOne() {
        var state = SessionState()
        let id = UUID()
        let snapshot = state.nextEvent(at: start, id: id)
        #expect(snapshot.isNewSession)
        #expect(snapshot.sessionIndex == 1)
        #expect(snapshot.eventIndex == 1)
        #expect(snapshot.firstEventID == id)
        #expect(snapshot.firstEventTimestamp == start)
        #expect(snapshot.previousSessionID == nil)
    }

    @Test func eventIndexIncrementsWithinASession() {
        var state = SessionState()
        let first = state.nextEvent(at: start, id: UUID())
        let second = state.nextEvent(at: at(10), id: UUID())
        let third = state.nextEvent(at: at(20), id: UUID())
        #expect([first.eventIndex, second.eventIndex, third.eventIndex] == [1, 2, 3] as [Int])
        #expect(Set([first.sessionID, second.sessionID, third.sessionID]).count == 1)
        #expect(third.firstEventID == first.firstEventID)
        #expect(!second.isNewSession && !third.isNewSession)
    }

    // The rule: a session expires when elapsed >= timeout.
    @Test func justBeforeTheForegroundTimeoutTheSessionContinues() {
        var state = SessionState(foregroundTimeout: 1800, backgroundTimeout: 600)
        let first = state.nextEvent(at: start, id: UUID())
        let next = state.nextEvent(at: at(1799.999), id: UUID())
        #expect(!next.isNewSession)
        #expect(next.sessionID == first.sessionID)
        #expect(next.eventIndex == 2)
    }

    @Test func exactlyAtTheForegroundTimeoutTheSessionRollsOver() {
        var state = SessionState(foregroundTimeout: 1800, backgroundTimeout: 600)
        let first = state.nextEvent(at: start, id: UUID())
        let rolledID = UUID()
        let next = state.nextEvent(at: at(1800), id: rolledID)
        #expect(next.isNewSession)
        #expect(next.sessionID != first.sessionID)
        #expect(next.previousSessionID == first.sessionID)
        #expect(next.sessionIndex == 2)
        #expect(next.eventIndex == 1)
        #expect(next.firstEventID == rolledID)
        #expect(next.firstEventTimestamp == at(1800))
    }

    @Test func theTimeoutCountsFromTheLastEventNotTheFirst() {
        var state = SessionState(foregroundTimeout: 100, backgroundTimeout: 100)
        let first = state.nextEvent(at: start, id: UUID())
        _ = state.nextEvent(at: at(90), id: UUID())
        let third = state.nextEvent(at: at(189), id: UUID())
        #expect(third.sessionID == first.sessionID)
        #expect(state.nextEvent(at: at(289), id: UUID()).isNewSession)
    }

    @Test func inTheBackgroundTheBackgroundTimeoutApplies() {
        var state = SessionState(foregroundTimeout: 1800, backgroundTimeout: 600)
        let first = state.nextEvent(at: start, id: UUID())
        state.didEnterBackground(at: at(10))
        #expect(state.nextEvent(at: at(599.5), id: UUID()).sessionID == first.sessionID)
        // 600 s after the last event (at 599.5), still in the background: expired.
        let rolled = state.nextEvent(at: at(1199.5), id: UUID())
        #expect(rolled.isNewSession)
        #expect(rolled.previousSessionID == first.sessionID)
    }

    @Test func aLongBackgroundRollsOverOnReturnEvenUnderTheForegroundTimeout() {
        var state = SessionState(foregroundTimeout: 1800, backgroundTimeout: 600)
        let first = state.nextEvent(at: start, id: UUID())
        state.didEnterBackground(at: at(1))
        state.willEnterForeground(at: at(600)) // exactly the background timeout since the last event
        let next = state.nextEvent(at: at(601), id: UUID())
        #expect(next.isNewSession)
        #expect(next.sessionIndex == 2)
        #expect(next.previousSessionID == first.sessionID)
    }

    @Test func aShortBackgroundKeepsTheSession() {
        var state = SessionState(foregroundTimeout: 1800, backgroundTimeout: 600)
        let first = state.nextEvent(at: start, id: UUID())
        state.didEnterBackground(at: at(1))
        state.willEnterForeground(at: at(599))
        let next = state.nextEvent(at: at(1000), id: UUID())
        #expect(!next.isNewSession)
        #expect(next.sessionID == first.sessionID)
    }

    @Test func theForegroundTimeoutAppliesInTheForegroundEvenIfBackgroundIsShorter() {
        var state = SessionState(foregroundTimeout: 1800, backgroundTimeout: 60)
        let first = state.nextEvent(at: start, id: UUID())
        #expect(state.nextEvent(at: at(1000), id: UUID()).sessionID == first.sessionID)
    }

    @Test func aClockSteppingBackDoesNotExtendOrBreakTheSession() {
        var state = SessionState(foregroundTimeout: 100, backgroundTimeout: 100)
        let first = state.nextEvent(at: at(50), id: UUID())
        #expect(state.nextEvent(at: at(0), id: UUID()).sessionID == first.sessionID)
        #expect(state.nextEvent(at: at(150), id: UUID()).isNewSession)
    }

    @Test func sessionIDsAreFreshAndIndexesCount() {
        var state = SessionState(foregroundTimeout: 10, backgroundTimeout: 10)
        var ids: [UUID] = []
        for round in 0..<5 { ids.append(state.nextEvent(at: at(Double(round) * 10), id: UUID()).sessionID) }
        #expect(Set(ids).count == 5)
        #expect(state.sessionIndex == 5)
        #expect(state.previousSessionID == ids[3])
    }
}
