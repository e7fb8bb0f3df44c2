import Dispatch
import Foundation

/// A cancellable timer of the library's own: a `DispatchSourceTimer` on a private serial queue.
///
/// Waiting for it costs no CPU and no thread, and it fires whether or not Swift's cooperative
/// pool has a free thread (unlike `Task.sleep`, whose wake-up needs one). Handlers run on the
/// timer's queue and must return quickly (hand blocking work to a queue of its own, see
/// `init(after:repeating:queue:handler:)`). Dropping the last reference cancels the timer.
final class LibraryTimer: @unchecked Sendable {
    // Unchecked: `source` is a libdispatch timer (thread-safe, fixed after init) that the Linux
    // Dispatch overlay does not mark Sendable.
    private let source: any DispatchSourceTimer

    /// The queue handlers run on unless one is given.
    static let queue = DispatchQueue(label: "Dispatcher.timers", qos: .utility)

    /// The longest delay a timer is set for: longer ones (and infinity) wait this long, so that
    /// no conversion to nanoseconds can overflow. About ten years.
    static let longestDelay: TimeInterval = 315_360_000

    /// Starts a timer.
    /// - Parameters:
    ///   - delay: seconds until it first fires; NaN and negative values fire at once.
    ///   - interval: seconds between later firings; nil fires once.
    ///   - queue: where `handler` runs; the shared timer queue by default.
    ///   - handler: what to do when it fires.
    init(after delay: TimeInterval, repeating interval: TimeInterval? = nil, queue: DispatchQueue = LibraryTimer.queue,
         handler: @escaping @Sendable () -> Void) {
        source = DispatchSource.makeTimerSource(queue: queue)
        let repeating = interval.map { DispatchTimeInterval.nanoseconds(Self.nanoseconds($0)) } ?? .never
        source.schedule(deadline: .now() + .nanoseconds(Self.nanoseconds(delay)), repeating: repeating,
                        leeway: .milliseconds(5))
        source.setEventHandler(handler: handler)
        source.resume()
    }

    deinit { source.cancel() }

    /// Stops the timer: its handler does not run again (a run in progress finishes).
    func cancel() { source.cancel() }

    /// `seconds` as whole nanoseconds, clamped to `0 ... longestDelay`.
    static func nanoseconds(_ seconds: TimeInterval) -> Int {
        guard seconds > 0 else { return 0 }
        return Int(min(seconds, longestDelay) * 1_000_000_000)
    }
}
