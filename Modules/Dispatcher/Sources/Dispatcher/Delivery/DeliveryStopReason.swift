/// Why a delivery round ended.
public enum DeliveryStopReason: String, Sendable, Equatable {
    /// Nothing due was left to claim.
    case drained
    /// A batch failed and was scheduled for retry: the round backs off instead of hammering.
    case backingOff
    /// The deadline passed.
    case deadline
    /// The worker was stopped or the calling task cancelled.
    case stopped
    /// The queue failed to claim or settle events; ``DeliveryReport/lastError`` says how.
    case queueError
    /// The collector refused the endpoint or the credentials (HTTP 401, 403 or 404): the events
    /// stay pending, and a ``Dispatcher`` pauses delivery until ``Dispatcher/resume()``.
    /// ``DeliveryReport/lastError`` names the cause.
    case endpointRefused
}
