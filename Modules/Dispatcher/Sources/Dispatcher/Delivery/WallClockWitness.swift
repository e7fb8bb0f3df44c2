import Foundation
import Tracking

/// Watches the wall clock against a clock that only moves forward with real time (counting
/// sleep), so that an event's age can be judged without trusting a clock a person set.
///
/// The difference between the two, compared with the difference when the witness started, is
/// how far the wall clock has been stepped since (forward positive). Each ``DeliveryWorker``
/// starts one with itself, and ``RetryPolicy`` leaves the part of an event's age that such steps
/// may explain out of ``RetryPolicy/maxAge``, so that a clock set ahead cannot make events look
/// older than they are.
final class WallClockWitness: Sendable {
    private let wallAtStart: Date
    private let steadyAtStart: TimeInterval
    private let steady: @Sendable () -> TimeInterval
    /// The lowest step seen so far (a step back is remembered).
    private let lowestStep = LockedValue<TimeInterval>(0)

    /// Starts watching from `wall`, with `steady` as the forward-only clock (seconds), or from
    /// `baseline`, an earlier reading on this boot (see ``ClockBaseline``), so that a step made
    /// before this process started is seen too.
    init(wall: Date = Date(), steady: @escaping @Sendable () -> TimeInterval = SteadyClock.secondsSinceBoot,
         since baseline: ClockBaseline? = nil) {
        self.steady = steady
        wallAtStart = baseline?.wall ?? wall
        steadyAtStart = baseline?.steady ?? steady()
    }

    /// How many seconds of any age read at `now` steps of the wall clock may account for: never
    /// negative, 0 while the clock was never stepped.
    ///
    /// A step forward since the start makes everything created before it look older by that much;
    /// a step back (remembered, even once the clock returns) makes something created while the
    /// clock was behind look older by that much. The sum bounds both, so the age minus it never
    /// exceeds the real age for anything created while the process lived or before it started.
    func steppedSeconds(at now: Date) -> TimeInterval {
        let step = now.timeIntervalSince(wallAtStart) - (steady() - steadyAtStart)
        let lowest = lowestStep.withLock {
            $0 = min($0, step)
            return $0
        }
        let doubt = step - lowest
        return doubt.isFinite ? max(0, doubt) : 0
    }
}
