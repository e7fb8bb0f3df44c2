/// A change in the host app that can trigger a delivery.
public enum LifecycleEvent: String, Sendable, Codable {
    /// The app will enter the foreground.
    case willEnterForeground
    /// The app entered the background.
    case didEnterBackground
    /// The network became reachable.
    case reachable
    /// The network became unreachable: deliveries wait until ``reachable``.
    case unreachable
}
