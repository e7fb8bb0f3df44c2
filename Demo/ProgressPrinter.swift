import Foundation
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
final class ProgressPrinter: @unchecked Sendable {
    // Safe: `running` and `status` are only touched while holding `lock`, and lines are
    // printed while holding it, so none is printed after `stop()` returned.
    private let lock = NSLock()
    private var running = true
    private var status = ""

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
        guard enabled else {
            running = false
            return
        }
        let started = Date()
        Thread.detachNewThread { [self] in
            var next = delay
            while true {
                usleep(50_000)
                let elapsed = Date().timeIntervalSince(started)
                guard elapsed >= next else {
                    if !lock.withLock({ running }) { return }
                    continue
                }
                next = elapsed + interval
                let keepGoing = lock.withLock { () -> Bool in
                    guard running else { return false }
                    printError(line(status, elapsed))
                    return true
                }
                if !keepGoing { return }
            }
        }
    }

    /// Sets what the next line reports (for commands that go through phases).
    func setStatus(_ text: String) {
        lock.withLock { status = text }
    }

    /// Stops reporting; no line is printed after this returns.
    func stop() {
        lock.withLock { running = false }
    }
}
