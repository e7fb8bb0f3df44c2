@testable import Benchmarks
import Foundation
import Testing

/// The split of an idle window's wake-ups by thread, which `idle_wakeups_per_s_*` report.
@Suite("ThreadSwitches")
struct ThreadSwitchesTests {
    @Test("the event thread's switches, those of threads that ended, and the rest add up to the process's")
    func split() {
        // Thread 1: the event thread (waiting in epoll_wait at the start only); 2: stays and wakes
        // twice; 3: ends in the window; 4: starts in the window.
        let start = ThreadSwitches(byThread: [1: 10, 2: 5, 3: 7], inEpollWait: [1])
        let end = ThreadSwitches(byThread: [1: 20, 2: 7, 4: 1], inEpollWait: [])
        let split = ThreadSwitches.split(total: 16, start: start, end: end)
        #expect(split.platformTimer == 10)
        #expect(split.retiring == 3, "16 in all, 13 on the threads alive at the end")
        #expect(split.others == 3, "thread 2's two and thread 4's one")
    }

    @Test("a window in which nothing woke splits into zeros")
    func quiet() {
        let reading = ThreadSwitches(byThread: [1: 3, 2: 4], inEpollWait: [2])
        let split = ThreadSwitches.split(total: 0, start: reading, end: reading)
        #expect(split.platformTimer == 0 && split.retiring == 0 && split.others == 0)
    }

    #if os(Linux)
    /// One reading, on a queue of its own: it reads a file per thread of this (large) test
    /// process, which is no work for Swift's cooperative pool.
    @Test("a reading of this process finds its threads, the reading one among them")
    func readsThisProcess() async throws {
        let (reading, tid) = await withCheckedContinuation { continuation in
            DispatchQueue(label: "ThreadSwitchesTests").async {
                // `/proc/thread-self` links to `<pid>/task/<tid>`.
                let link = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/thread-self")) ?? ""
                continuation.resume(returning: (ThreadSwitches.now(), Int(link.split(separator: "/").last ?? "")))
            }
        }
        #expect(reading.byThread.count >= 2)
        let thread = try #require(tid, "no /proc/thread-self")
        #expect(reading.byThread[thread] != nil, "the reading thread \(thread) is listed")
        #expect(reading.byThread.values.allSatisfy { $0 >= 0 })
    }
    #endif
}
