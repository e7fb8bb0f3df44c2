import Foundation
@_spi(Clocks) import Tracking

/// A point in time on the monotonic clock (``CoarseClock``), so that waits are immune to
/// wall-clock changes, and the time left until it as milliseconds for `poll(2)`, clamped to
/// what an `Int32` holds: no input or clock reading can make it trap.
struct InspectorDeadline: Sendable {
    /// The monotonic reading at which it passes, in nanoseconds.
    let end: UInt64

    /// The deadline `seconds` from now (a negative or non-finite span counts as none, a huge one
    /// is capped at a day).
    init(seconds: TimeInterval) {
        let span = seconds.isFinite ? min(max(seconds, 0), 86_400) : 0
        end = CoarseClock.nanoseconds() &+ UInt64(span * 1_000_000_000)
    }

    /// Whether time is left.
    var isPending: Bool { CoarseClock.nanoseconds() < end }

    /// The milliseconds left, rounded up, from 0 to `Int32.max`.
    var remainingMilliseconds: Int32 {
        let now = CoarseClock.nanoseconds()
        guard now < end else { return 0 }
        let milliseconds = (end - now) / 1_000_000 + 1
        return Int32(clamping: milliseconds)
    }
}
