import Foundation

/// What one delivery round did.
public struct DeliveryReport: Sendable, Equatable {
    /// Events acknowledged by the destination and removed.
    public var delivered = 0
    /// Events scheduled for a later attempt.
    public var retried = 0
    /// Events moved to the rejected state.
    public var rejected = 0
    /// Requests (or file appends) made.
    public var requests = 0
    /// The last failure: a delivery reason or a queue error.
    public var lastError: String?
    /// Why the round ended.
    public var stopReason: DeliveryStopReason = .drained
    /// The earliest next-attempt time among events this round scheduled for retry; for a round
    /// that drained, the earliest of the pending events still waiting for their retry (at most
    /// the retry policy's ``RetryPolicy/maxWait`` ahead).
    public var earliestNextAttempt: Date?

    /// Creates an empty report.
    public init() {}

    /// Whether the round ended with events that may be due now (deadline, stop or queue error).
    /// False when the queue had nothing due, when the round backed off after a failure
    /// (see ``earliestNextAttempt``), and when the collector refused the endpoint (retrying
    /// before the cause is fixed is pointless).
    public var hasDueEvents: Bool {
        switch stopReason {
        case .drained, .backingOff, .endpointRefused: false
        case .deadline, .stopped, .queueError: true
        }
    }
}
