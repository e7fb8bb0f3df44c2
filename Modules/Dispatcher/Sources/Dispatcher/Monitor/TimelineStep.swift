import Foundation

/// One step in an event's delivery timeline, as the monitor shows it.
public struct TimelineStep: Sendable, Equatable, Codable {
    /// What happened.
    public enum Kind: String, Sendable, Codable {
        /// It is in the SQLite store.
        case persisted
        /// Its first request started (see ``TimelineStep/detail``: how many events, where).
        case batched
        /// A delivery attempt ended (see ``TimelineStep/detail``).
        case attempt
        /// The destination acknowledged it; it left the store.
        case delivered
        /// It moved to the rejected state.
        case rejected
        /// It was evicted to respect the queue bounds.
        case evicted
    }

    /// What happened.
    public var kind: Kind
    /// When.
    public var at: Date
    /// The attempt number, for ``Kind/attempt``.
    public var attempt: Int?
    /// The outcome or reason (`HTTP 503`, `timed out`, `400: bad payload`).
    public var detail: String?

    /// Creates a step.
    public init(kind: Kind, at: Date = Date(), attempt: Int? = nil, detail: String? = nil) {
        self.kind = kind
        self.at = at
        self.attempt = attempt
        self.detail = detail
    }
}
