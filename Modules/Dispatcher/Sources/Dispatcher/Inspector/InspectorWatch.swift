import Foundation
@_spi(Clocks) import Tracking

/// Whether someone looks at the inspector: until 5 s after the last API request, and for as
/// long as a stream is open (its poller touches this at every beat). One lock and a coarse
/// clock reading per check, cheap enough for the send path's receipt taps.
final class InspectorWatch: Sendable {
    /// How long a request counts as someone watching, in nanoseconds.
    static let span: UInt64 = 5_000_000_000

    /// The coarse clock reading until which someone watches; 0 before anyone came.
    private let until = LockedValue<UInt64>(0)

    /// Someone looked now.
    func touch() {
        let end = CoarseClock.nanoseconds() &+ Self.span
        until.withLock { $0 = max($0, end) }
    }

    /// Whether someone looked within ``span``.
    var isWatched: Bool {
        let end = until.withLock { $0 }
        return end != 0 && CoarseClock.nanoseconds() < end
    }
}
