import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The CPU time this process has used, for summaries: a command that waits must not burn it.
struct ProcessCPU: CustomStringConvertible {
    /// Seconds in user mode.
    var user: Double
    /// Seconds in the kernel.
    var system: Double

    /// The time used so far.
    static func now() -> ProcessCPU {
        var usage = rusage()
        #if canImport(Glibc)
        getrusage(__rusage_who_t(RUSAGE_SELF.rawValue), &usage)
        #else
        getrusage(RUSAGE_SELF, &usage)
        #endif
        func seconds(_ time: timeval) -> Double { Double(time.tv_sec) + Double(time.tv_usec) / 1_000_000 }
        return ProcessCPU(user: seconds(usage.ru_utime), system: seconds(usage.ru_stime))
    }

    /// `cpu 1.20 s user + 0.30 s sys`.
    var description: String { String(format: "cpu %.2f s user + %.2f s sys", user, system) }
}
