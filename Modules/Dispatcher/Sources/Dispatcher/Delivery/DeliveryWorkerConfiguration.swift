import Foundation

/// How a ``DeliveryWorker`` claims and retries.
struct DeliveryWorkerConfiguration: Sendable {
    /// The most events in one batch (the byte budget comes from the destination).
    var deliverySize: Int
    /// The retry policy.
    var retryPolicy: RetryPolicy
    /// The current time. Injected for tests.
    var clock: @Sendable () -> Date
    /// A value in `0 ..< 1` for retry jitter. Injected for tests.
    var random: @Sendable () -> Double
    /// The earliest reading of the wall clock on this boot (see ``ClockBaseline``), so that a date
    /// set before the process started does not age events; `nil` watches from the worker's start.
    var clockBaseline: ClockBaseline?

    /// Creates a configuration.
    init(
        deliverySize: Int = 500, retryPolicy: RetryPolicy = RetryPolicy(),
        clock: @escaping @Sendable () -> Date = { Date() },
        random: @escaping @Sendable () -> Double = { Double.random(in: 0..<1) },
        clockBaseline: ClockBaseline? = nil
    ) {
        self.clockBaseline = clockBaseline
        self.deliverySize = max(1, deliverySize)
        self.retryPolicy = retryPolicy
        self.clock = clock
        self.random = random
    }
}
