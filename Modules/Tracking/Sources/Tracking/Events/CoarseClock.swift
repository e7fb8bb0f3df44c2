import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A monotonic clock cheap enough to read on every send: on Linux `CLOCK_MONOTONIC_COARSE`
/// (a read of the kernel's last tick through the vDSO, no system call, 1 to 10 ms steps),
/// elsewhere `DispatchTime` (Mach absolute time, read from the commpage). It does not count
/// the time the device sleeps, and setting the date does not move it.
///
/// Shared by the SDK's own modules (the Dispatcher, the session tracker), not part of the
/// public API: `@_spi(Clocks) import Tracking` reaches it.
@_spi(Clocks)
public enum CoarseClock {
    /// Nanoseconds since an arbitrary start, never going back.
    @inlinable @inline(__always)
    public static func nanoseconds() -> UInt64 {
        #if os(Linux)
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC_COARSE, &now)
        return UInt64(now.tv_sec) &* 1_000_000_000 &+ UInt64(now.tv_nsec)
        #else
        return DispatchTime.now().uptimeNanoseconds
        #endif
    }

    /// Seconds since the same start as ``nanoseconds()``.
    @inlinable
    public static func seconds() -> TimeInterval { TimeInterval(nanoseconds()) / 1_000_000_000 }
}
