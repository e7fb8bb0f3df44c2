/// What holds automatic delivery rounds back, as the host asked for it: ``Dispatcher/pause()``
/// and the last reachability it reported. The Dispatcher keeps it while its storage is not open
/// and hands it to each new ``DeliveryScheduler``.
struct DeliveryHold: Sendable, Equatable {
    /// Whether ``Dispatcher/pause()`` was called without a later ``Dispatcher/resume()``.
    var paused = false
    /// Whether the network was last reported reachable (it is assumed to be until told otherwise).
    var reachable = true
}
