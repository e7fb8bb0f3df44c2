import Foundation

/// The steady clock's present (``Tracking/SteadyClock``, which counts sleep and which setting
/// the date does not step) worked out from a wall-clock reading and a coarse monotonic one
/// (``Tracking/CoarseClock``), both cheap, instead of reading the steady clock on every event.
///
/// A calibration notes the three clocks together. Afterwards, the steady clock has moved as far
/// as the coarse one did, unless the device slept (the coarse clock does not count sleep) — and
/// both sleeping and setting the date move the wall clock against the coarse one. So the
/// estimate holds only while the wall clock's distance from the coarse one is what it was at the
/// calibration (within ``tolerance``), and for at most ``lifetime`` seconds of coarse time;
/// otherwise `nil` asks the caller to read the steady clock and calibrate again. An estimate is
/// off by at most a coarse tick and ``tolerance``: session idle time needs seconds.
struct SteadyEstimate: Sendable {
    /// How far, in seconds, the wall clock may drift from the coarse one before the estimate is
    /// given up: above a coarse tick (up to 10 ms), far below the seconds idle time is counted in.
    static let tolerance: TimeInterval = 0.05
    /// The longest an estimate rests on one calibration, in seconds of coarse time.
    static let lifetime: TimeInterval = 1

    /// The coarse clock at the calibration; `nil` before the first.
    private var coarseAtCalibration: TimeInterval?
    /// The wall clock less the coarse one, at the calibration.
    private var wallLessCoarse: TimeInterval = 0
    /// The steady clock less the coarse one, at the calibration.
    private var steadyLessCoarse: TimeInterval = 0

    /// The steady clock's present, for a wall-clock reading and a coarse reading taken
    /// together; `nil` when the last calibration does not vouch for it (see the type).
    func steady(wall: TimeInterval, coarse: TimeInterval) -> TimeInterval? {
        guard let coarseAtCalibration else { return nil }
        let age = coarse - coarseAtCalibration
        guard age >= 0, age < Self.lifetime, abs(wall - coarse - wallLessCoarse) <= Self.tolerance else { return nil }
        return coarse + steadyLessCoarse
    }

    /// Notes the three clocks, read together.
    mutating func calibrate(wall: TimeInterval, coarse: TimeInterval, steady: TimeInterval) {
        coarseAtCalibration = coarse
        wallLessCoarse = wall - coarse
        steadyLessCoarse = steady - coarse
    }
}
