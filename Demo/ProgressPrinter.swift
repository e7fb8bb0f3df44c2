import Foundation
import Tracking
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Progress of a long command on standard error: nothing for the first 2 seconds, then one
/// line about every second until ``stop()``.
///
/// Shown only when standard error is a terminal or `--progress` was given, so logs and pipes
/// stay quiet unless asked. The line comes from a closure, called on the reporter's own
/// thread, given the status last set with ``setStatus(_:)`` and the seconds since the start.
final class ProgressPrinter: Sendable {
    /// Whether lines are still printed, and the status they report.
    private struct State {
        var running: Bool
        var status = ""
    }

    /// Lines are printed while holding it, so none is printed after ``stop()`` returned.
    private let state: LockedValue<State>

    /// Whether progress is shown: `--progress` was given or standard error is a terminal.
    static func isEnabled(_ options: CommandLineOptions) -> Bool {
        options.has("progress") || isatty(STDERR_FILENO) == 1
    }

    /// Starts reporting when `enabled`; otherwise does nothing.
    /// - Parameters:
    ///   - delay: seconds before the first line.
    ///   - interval: seconds between lines.
    ///   - line: the line to print, from the current status and the seconds elapsed.
    init(enabled: Bool, delay: TimeInterval = 2, interval: TimeInterval = 1,
         line: @escaping @Sendable (_ status: String, _ elapsed: TimeInterval) -> String) {
        state = LockedValue(State(running: enabled))
        guard enabled else { return }
        let started = Date()
        Thread.detachNewThread { [self] in
            var next = delay
            while true {
                usleep(50_000)
                let elapsed = Date().timeIntervalSince(started)
                guard elapsed >= next else {
                    if !state.withLock({ $0.running }) { return }
                    continue
                }
                next = elapsed + interval
                let keepGoing = state.withLock { current -> Bool in
                    guard current.running else { return false }
                    printError(line(current.status, elapsed))
                    return true
                }
                if !keepGoing { return }
            }
        }
    }

    /// Sets what the next line reports (for commands that go through phases).
    func setStatus(_ text: String) {
        state.withLock { $0.status = text }
    }

    /// Stops reporting; no line is printed after this returns.
    func stop() {
        state.withLock { $0.running = false }
    }
}
