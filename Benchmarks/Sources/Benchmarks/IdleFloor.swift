import Foundation

/// The reference for `idle_wakeups_per_s`, measured in the same run: a fresh process that ran one
/// Swift task and nothing else, idle over the same window with the same wait.
///
/// On Linux, libdispatch has no kernel workqueue: the first job on a concurrent queue (Swift's
/// global executor is one) starts a pool monitor that wakes once a second for the life of the
/// process, and nothing can stop it. Every Linux process that uses Swift concurrency pays it,
/// with or without this library; Apple platforms have no such monitor. The floor measures it,
/// and `idle_wakeups_per_s_above_floor` is what the library adds to it.
public enum IdleFloor {
    /// The key the child prints.
    public static let key = "idle_wakeups_per_s_floor"

    /// Runs one task on Swift's global executor, then measures `window` seconds of idle.
    /// - Returns: the window's wake-ups per second.
    public static func run(window: TimeInterval = IdlePhase.window) async -> Double {
        await Task.detached {}.value
        let measured = await IdleWindow.measure(seconds: window)
        return Double(measured.switches) / window
    }

    /// Runs `executable bench --idle-floor-probe --idle-window S` as a child process.
    /// - Parameter executable: the demo; this executable when nil.
    public static func measureInChild(window: TimeInterval = IdlePhase.window, executable: URL? = nil) throws -> Double {
        try ChildProcess.measure(arguments: ["bench", "--idle-floor-probe", "--idle-window", String(window)],
                                 keys: [key], executable: executable)[key] ?? .nan
    }
}
