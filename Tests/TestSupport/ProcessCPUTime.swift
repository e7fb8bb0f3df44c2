import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The CPU time, user and system, that this process has used so far, in seconds
/// (`clock_gettime(CLOCK_PROCESS_CPUTIME_ID)`): the difference around a wait is what it cost.
public func processCPUSeconds() -> Double {
    var time = timespec()
    guard clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &time) == 0 else { return 0 }
    return Double(time.tv_sec) + Double(time.tv_nsec) / 1_000_000_000
}
