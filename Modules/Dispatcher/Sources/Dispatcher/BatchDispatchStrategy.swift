/// The moments, besides the timer and a full batch, at which the Dispatcher delivers.
///
/// The host reports lifecycle and reachability changes through
/// ``Dispatcher/handle(_:)``; each moment triggers a delivery only when its strategy is set.
public struct BatchDispatchStrategy: OptionSet, Sendable, Hashable, Codable {
    /// The raw bits.
    public let rawValue: Int

    /// Creates a strategy from raw bits.
    public init(rawValue: Int) { self.rawValue = rawValue }

    /// Deliver what an earlier run left pending as soon as the Dispatcher starts.
    public static let boot = BatchDispatchStrategy(rawValue: 1 << 0)
    /// Deliver when the app comes back to the foreground.
    public static let willEnterForeground = BatchDispatchStrategy(rawValue: 1 << 1)
    /// Deliver when the app goes to the background (pair it with ``Dispatcher/drain(timeout:isolation:)``
    /// inside a background task).
    public static let didEnterBackground = BatchDispatchStrategy(rawValue: 1 << 2)
    /// Deliver when the network becomes reachable again.
    public static let reachabilityPings = BatchDispatchStrategy(rawValue: 1 << 3)
    /// Deliver each of the first ``BatchConfiguration/initialEventsCount`` events of a run at once,
    /// so a new install or session shows up in the pipeline without waiting for a batch.
    public static let initialEvents = BatchDispatchStrategy(rawValue: 1 << 4)

    /// Every strategy.
    public static let all: BatchDispatchStrategy = [.boot, .willEnterForeground, .didEnterBackground, .reachabilityPings, .initialEvents]
}
