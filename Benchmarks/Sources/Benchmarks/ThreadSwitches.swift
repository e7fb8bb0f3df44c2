import Foundation

/// Context switches of each thread of this process, from `/proc/self/task/*/status` (Linux;
/// empty elsewhere), to tell apart who woke during an idle window.
///
/// On Linux, libdispatch has no kernel workqueue and sizes its thread pool with a monitor timer
/// that fires once a second for the life of any process that ever used a global queue (Swift's
/// cooperative pool does): its thread waits in `epoll_wait` between firings. Apple platforms have
/// no such timer.
struct ThreadSwitches {
    /// Voluntary plus involuntary context switches, by thread id.
    var byThread: [Int: Int] = [:]
    /// The threads blocked in `epoll_wait` when read: libdispatch's event thread.
    var inEpollWait: Set<Int> = []

    /// Reads every thread of this process now.
    static func now() -> ThreadSwitches {
        var reading = ThreadSwitches()
        #if os(Linux)
        let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/task")) ?? []
        for name in tasks {
            guard let tid = Int(name), let status = try? String(contentsOfFile: "/proc/self/task/\(name)/status", encoding: .utf8) else { continue }
            var switches = 0
            for line in status.split(separator: "\n") where line.contains("ctxt_switches:") {
                switches += Int(line.split(separator: ":").last?.trimmingCharacters(in: .whitespaces) ?? "") ?? 0
            }
            reading.byThread[tid] = switches
        }
        // The event thread may be awake for a moment (a timer it just handled): look again shortly.
        for _ in 0..<5 where reading.inEpollWait.isEmpty {
            reading.inEpollWait = Set(reading.byThread.keys.filter(isInEpollWait))
            if reading.inEpollWait.isEmpty { usleep(1_000) }
        }
        #endif
        return reading
    }

    /// Whether thread `tid` of this process is blocked in `epoll_wait` now.
    private static func isInEpollWait(_ tid: Int) -> Bool {
        let syscall = (try? String(contentsOfFile: "/proc/self/task/\(tid)/syscall", encoding: .utf8)) ?? ""
        return syscall.split(separator: " ").first.flatMap { Int($0) }.map(epollWaitNumbers.contains) ?? false
    }

    /// The system call numbers of `epoll_wait`, `epoll_pwait` and `epoll_pwait2`.
    private static var epollWaitNumbers: Set<Int> {
        #if arch(x86_64)
        return [232, 281, 441]
        #elseif arch(arm64)
        return [22, 441]
        #else
        return []
        #endif
    }

    /// What woke between `start` and `end`, of `total` switches of the whole process
    /// (`getrusage`, which also counts threads that ended meanwhile).
    struct Split {
        /// Switches of libdispatch's event thread (its once-a-second pool monitor).
        var platformTimer = 0
        /// Switches of threads that ended in the window (libdispatch retiring idle workers).
        var retiring = 0
        /// The rest: threads alive at the end, except the event thread.
        var others = 0
    }

    /// Splits `total` between the event thread (seen in `epoll_wait` at the start or the end),
    /// threads that ended, and the rest.
    static func split(total: Int, start: ThreadSwitches, end: ThreadSwitches) -> Split {
        var split = Split()
        var alive = 0
        // Either reading may catch the event thread awake: it is the one seen waiting in either.
        let eventThreads = start.inEpollWait.union(end.inEpollWait)
        for (tid, switches) in end.byThread {
            let delta = switches - (start.byThread[tid] ?? 0)
            alive += delta
            if eventThreads.contains(tid) { split.platformTimer += delta }
        }
        split.retiring = max(0, total - alive)
        split.others = max(0, total - split.retiring - split.platformTimer)
        return split
    }
}
