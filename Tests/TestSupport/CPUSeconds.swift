import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The CPU time, user and system, that the calling thread has used so far, in seconds
/// (`clock_gettime(CLOCK_THREAD_CPUTIME_ID)`). Unlike wall time, the difference around
/// synchronous work does not grow while the thread waits for a core on a loaded machine.
public func threadCPUSeconds() -> Double { cpuSeconds(CLOCK_THREAD_CPUTIME_ID) }

/// The time `clock` has counted, in seconds; 0 if the clock cannot be read.
private func cpuSeconds(_ clock: clockid_t) -> Double {
    var time = timespec()
    guard clock_gettime(clock, &time) == 0 else { return 0 }
    return Double(time.tv_sec) + Double(time.tv_nsec) / 1_000_000_000
}
