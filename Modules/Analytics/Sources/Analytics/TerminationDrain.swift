import Dispatch
@_spi(Tasks) import Dispatcher
import Foundation
import Tracking

/// The opt-in SIGTERM/SIGINT handling of command-line programs and servers: on either signal,
/// drain for at most the timeout, then end the process by that signal, as if it had not been
/// caught (so the parent sees the real cause).
///
/// The signals are received through Dispatch sources, not a C handler, so the drain runs as
/// ordinary code. A second signal, or the timeout passing, ends the process at once.
// Unchecked: `sources` holds Dispatch signal sources (`any DispatchSourceSignal`), which are not
// `Sendable`; its box's lock guards them.
final class TerminationDrain: @unchecked Sendable {
    /// The signals handled.
    static let signals: [Int32] = [SIGTERM, SIGINT]

    private let sources = LockedValue<[any DispatchSourceSignal]>([])
    private let draining = LockedValue(false)
    private let queue = DispatchQueue(label: "analytics.termination")
    private let timeout: TimeInterval
    private let drain: @Sendable (TimeInterval) async -> Void

    /// Starts handling the signals; `drain` is given the time it has left.
    init(timeout: TimeInterval, drain: @escaping @Sendable (TimeInterval) async -> Void) {
        self.timeout = timeout
        self.drain = drain
        var started: [any DispatchSourceSignal] = []
        for number in Self.signals {
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: queue)
            source.setEventHandler { [weak self] in self?.received(number) }
            source.resume()
            started.append(source)
        }
        sources.withLock { $0 = started }
    }

    /// Stops handling the signals and restores their default action.
    func stop() {
        let started = sources.withLock { sources in
            defer { sources.removeAll() }
            return sources
        }
        for source in started { source.cancel() }
        if !started.isEmpty { for number in Self.signals { signal(number, SIG_DFL) } }
    }

    private func received(_ number: Int32) {
        let first = draining.withLock { draining in
            defer { draining = true }
            return !draining
        }
        guard first else { Self.end(by: number) }
        // The backstop: whatever the drain does, the process ends within the timeout.
        queue.asyncAfter(deadline: .now() + timeout) { Self.end(by: number) }
        let drain = self.drain
        let timeout = self.timeout
        LibraryTask.start {
            await drain(max(0, timeout - 0.25))
            Self.end(by: number)
        }
    }

    /// Ends the process by `number` with its default action.
    ///
    /// Dispatch blocks a signal it receives through a source (on Linux it reads it from a
    /// `signalfd`), so this thread may have it blocked: `raise` would leave it pending and the
    /// process would exit with status 128 + signal instead of by the signal. It is unblocked
    /// here first; `_exit` remains the fallback.
    private static func end(by number: Int32) -> Never {
        signal(number, SIG_DFL)
        var unblocked = sigset_t()
        sigemptyset(&unblocked)
        sigaddset(&unblocked, number)
        pthread_sigmask(SIG_UNBLOCK, &unblocked, nil)
        raise(number)
        _exit(128 + number)
    }
}
