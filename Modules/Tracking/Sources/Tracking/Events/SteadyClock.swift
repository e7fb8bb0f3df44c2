#if canImport(Glibc)
import Glibc
#endif
import Foundation

/// A clock that only moves forward with real time, counting sleep, and that setting the date
/// does not step: what elapsed time inside the app is measured with (session idle time, how far
/// the wall clock stepped).
public enum SteadyClock {
    /// Seconds since boot: `CLOCK_BOOTTIME` on Linux, `CLOCK_MONOTONIC` on Apple platforms (where
    /// it counts sleep); `ProcessInfo.systemUptime` should the clock be unreadable.
    public static func secondsSinceBoot() -> TimeInterval {
        var time = timespec()
        #if canImport(Glibc)
        let clock = CLOCK_BOOTTIME
        #else
        let clock = CLOCK_MONOTONIC
        #endif
        guard clock_gettime(clock, &time) == 0 else { return ProcessInfo.processInfo.systemUptime }
        return TimeInterval(time.tv_sec) + TimeInterval(time.tv_nsec) / 1_000_000_000
    }
}
