import Foundation

/// A reference for `idle_wakeups_per_s`, measured in the same run: a fresh process that ran one
/// task on Swift's global executor and nothing else, idle over the same window with the same wait.
///
/// On Linux, libdispatch has no kernel workqueue: the first job on a non-overcommit root queue
/// (Swift's global executor targets one) starts a pool monitor that wakes the process once a
/// second for the rest of its life, and nothing can stop it. This is what an app pays on Linux
/// once its own code runs a task there, with or without this library. The library's own tasks
/// run on its own serial queues (`LibraryTask`), so the idle probe, an app with no task of its
/// own, does not pay it. Apple platforms have no such monitor.
public enum IdleFloor {
    /// The key the child prints.
    public static let key = "idle_wakeups_per_s_floor"

    /// Runs one task on Swift's global executor and waits for it on the calling thread, then
    /// measures `window` seconds of idle as ``IdlePhase`` does.
    /// - Returns: the window's wake-ups per second.
    public static func run(window: TimeInterval = IdlePhase.window) -> Double {
        let done = DispatchSemaphore(value: 0)
        Task.detached { done.signal() }
        done.wait()
        let measured = IdleWindow.measure(seconds: window)
        return Double(measured.switches) / window
    }

    /// Runs `executable bench --idle-floor-probe --idle-window S` as a child process.
    /// - Parameter executable: the demo; this executable when nil.
    public static func measureInChild(window: TimeInterval = IdlePhase.window, executable: URL? = nil) throws -> Double {
        try ChildProcess.measure(arguments: ["bench", "--idle-floor-probe", "--idle-window", String(window)],
                                 keys: [key], executable: executable)[key] ?? .nan
    }
}
