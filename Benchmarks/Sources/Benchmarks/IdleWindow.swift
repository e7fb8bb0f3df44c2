import Foundation

/// One idle window measured in this process: the wake-ups and CPU time of every thread while
/// the calling thread sleeps `seconds`, and who woke (see ``ThreadSwitches``).
///
/// The idle probe and its floor both measure through this type, so the two figures differ by
/// what ran before the window and nothing else.
struct IdleWindow {
    /// Context switches of the whole process in the window (`getrusage`).
    var switches: Int
    /// User and system CPU time in the window, in seconds.
    var cpuSeconds: Double
    /// The switches split between libdispatch's event thread, retiring threads and the rest.
    var split: ThreadSwitches.Split

    /// Sleeps the calling thread `seconds` and measures the window. The sleep's own end costs a
    /// wake-up: counted, not subtracted.
    static func measure(seconds: TimeInterval) -> IdleWindow {
        // The per-thread reading first: its reads of /proc are not the window's CPU.
        let threadsAtStart = ThreadSwitches.now()
        let before = Usage.now()
        Thread.sleep(forTimeInterval: seconds)
        let after = Usage.now()
        let threadsAtEnd = ThreadSwitches.now()
        let total = after.switches - before.switches
        return IdleWindow(switches: total, cpuSeconds: after.cpuSeconds - before.cpuSeconds,
                          split: ThreadSwitches.split(total: total, start: threadsAtStart, end: threadsAtEnd))
    }

    /// One `getrusage` reading of this process.
    struct Usage {
        var switches: Int
        var cpuSeconds: Double

        static func now() -> Usage {
            var usage = rusage()
            #if os(Linux)
            _ = getrusage(__rusage_who_t(RUSAGE_SELF.rawValue), &usage)
            #else
            _ = getrusage(RUSAGE_SELF, &usage)
            #endif
            let user = Double(usage.ru_utime.tv_sec) + Double(usage.ru_utime.tv_usec) / 1e6
            let system = Double(usage.ru_stime.tv_sec) + Double(usage.ru_stime.tv_usec) / 1e6
            return Usage(switches: usage.ru_nvcsw + usage.ru_nivcsw, cpuSeconds: user + system)
        }
    }
}
