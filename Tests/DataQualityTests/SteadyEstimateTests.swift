@testable import DataQuality
import Foundation
import Testing
import TestSupport
@testable import Tracking

/// The steady clock's present is worked out from the wall and coarse clocks only while nothing
/// moved the wall clock against the coarse one: a sleep or a set date makes the session read
/// the steady clock again, so idle time stays on the clock that counts sleep and ignores dates.
@Suite("Steady clock estimate")
struct SteadyEstimateTests {
    @Test func anEstimateFollowsTheCoarseClockWithinItsLifetime() throws {
        var estimate = SteadyEstimate()
        #expect(estimate.steady(wall: 1_000, coarse: 50) == nil, "never calibrated")
        estimate.calibrate(wall: 1_000, coarse: 50, steady: 70)
        let estimated = try #require(estimate.steady(wall: 1_000.5, coarse: 50.5))
        #expect(abs(estimated - 70.5) < 1e-9)
        #expect(estimate.steady(wall: 1_001.02, coarse: 51.02) == nil, "older than its lifetime")
        #expect(estimate.steady(wall: 999.9, coarse: 49.9) == nil, "a coarse reading before the calibration")
    }

    @Test func aSleepOrASetDateEndsTheEstimate() {
        var estimate = SteadyEstimate()
        estimate.calibrate(wall: 1_000, coarse: 50, steady: 70)
        #expect(estimate.steady(wall: 1_000.5 + 3_600, coarse: 50.5) == nil, "slept an hour: the wall clock ran, the coarse one did not")
        #expect(estimate.steady(wall: 1_000.5 - 600, coarse: 50.5) == nil, "the date set back")
        #expect(estimate.steady(wall: 1_000.5 + SteadyEstimate.tolerance * 2, coarse: 50.5) == nil, "the date set ahead")
        #expect(estimate.steady(wall: 1_000.5 + SteadyEstimate.tolerance / 2, coarse: 50.5) != nil, "a coarse tick's jitter")
    }

    /// The three clocks of a device, moved by hand; each read of the steady clock is counted.
    final class Device: Sendable {
        private let clocks = LockedValue((wall: 1_800_000_000.0, coarse: 100.0, steady: 500.0, steadyReads: 0))
        var wall: Date { Date(timeIntervalSince1970: clocks.withLock { $0.wall }) }
        var coarse: TimeInterval { clocks.withLock { $0.coarse } }
        var steadyReads: Int { clocks.withLock { $0.steadyReads } }
        func readSteady() -> TimeInterval { clocks.withLock { $0.steadyReads += 1; return $0.steady } }
        /// Awake time passing: every clock moves.
        func pass(_ seconds: TimeInterval) { clocks.withLock { $0.wall += seconds; $0.coarse += seconds; $0.steady += seconds } }
        /// Sleep: the coarse clock stands still.
        func sleep(_ seconds: TimeInterval) { clocks.withLock { $0.wall += seconds; $0.steady += seconds } }
        /// Someone sets the date.
        func setDate(by seconds: TimeInterval) { clocks.withLock { $0.wall += seconds } }
    }

    private func tracker(_ device: Device) -> SessionTracker {
        SessionTracker(store: InMemoryIdentityStore(), foregroundTimeout: 1800, backgroundTimeout: 1800, persistInterval: 5,
                       diagnostics: nil, wallClock: { device.wall }, steadyClock: { device.readSteady() },
                       wallClockIsSystem: true, coarseClock: { device.coarse })
    }

    /// The session of an event made now, as a reporter makes it (its wall-clock reading passed on).
    private func send(_ sessions: SessionTracker, _ device: Device) -> SessionSnapshot {
        let now = device.wall
        return sessions.nextEvent(at: now, id: UUID(), wallClockReading: now)
    }

    @Test func eventsInQuickSuccessionReadTheSteadyClockOnceASecond() {
        let device = Device()
        let sessions = tracker(device)
        let first = send(sessions, device)
        for _ in 0..<50 {
            device.pass(0.01)
            #expect(send(sessions, device).sessionID == first.sessionID)
        }
        #expect(device.steadyReads == 1, "half a second of events: one read")
        device.pass(1)
        _ = send(sessions, device)
        #expect(device.steadyReads == 2)
    }

    /// An event, then what `between` does to the device, then another event.
    private func eventsAround(_ between: (Device) -> Void) -> (device: Device, sessions: SessionTracker, first: SessionSnapshot, next: SessionSnapshot) {
        let device = Device()
        let sessions = tracker(device)
        let first = send(sessions, device)
        between(device)
        return (device, sessions, first, send(sessions, device))
    }

    @Test func aSleepLongerThanTheTimeoutEndsTheSessionThoughTheCoarseClockStoodStill() {
        let (_, _, first, next) = eventsAround { device in
            device.pass(0.1)
            device.sleep(31 * 60)
        }
        #expect(next.isNewSession && next.previousSessionID == first.sessionID)
    }

    @Test func theDateSetBackWhileIdleNeitherHidesNorAddsIdleTime() {
        let (device, sessions, first, next) = eventsAround { device in
            device.pass(0.2)
            // 31 minutes awake and idle, the date set back by as much: the wall clock shows no time passing.
            device.pass(31 * 60)
            device.setDate(by: -31 * 60 - 0.2)
        }
        #expect(next.isNewSession && next.previousSessionID == first.sessionID)
        // The date set 8 days ahead, a minute later: the session goes on.
        device.pass(60)
        device.setDate(by: 8 * 86_400)
        #expect(send(sessions, device).sessionID == next.sessionID)
    }
}
