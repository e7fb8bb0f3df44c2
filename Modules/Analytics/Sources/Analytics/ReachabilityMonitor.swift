import Foundation

/// Where the runtime learns whether the network has a usable path: `NWPathMonitor` on Apple
/// platforms (in `Apple/`), nothing on Linux (``NoReachabilityMonitor``). Tests use a fake.
protocol ReachabilityMonitor: Sendable {
    /// Starts reporting: `update` is called with whether a path is usable, first with the
    /// current path and then on every change (identical reports may repeat), on any thread.
    func start(_ update: @escaping @Sendable (_ reachable: Bool) -> Void)
    /// Stops reporting. Safe to call more than once.
    func stop()
}

/// The monitor where the system reports nothing: the network is taken to be reachable.
struct NoReachabilityMonitor: ReachabilityMonitor {
    /// Reports nothing.
    func start(_ update: @escaping @Sendable (_ reachable: Bool) -> Void) {}
    /// Does nothing.
    func stop() {}
}
