import Foundation

/// What a ``Destination`` did with a batch.
///
/// Events the destination refused on its own, before sending (for example one larger than the
/// per-event limit), are listed in ``rejectedEvents`` with a reason; ``outcome`` applies to
/// every other event of the batch.
public struct DeliveryResult: Sendable, Equatable {
    /// The outcome for the events that were sent.
    public var outcome: DeliveryOutcome
    /// Events refused individually, with the reason; they are rejected whatever ``outcome`` says.
    public var rejectedEvents: [UUID: String]
    /// The HTTP status, when a response arrived.
    public var statusCode: Int?
    /// Whether the collector refused a compressed body, so that the batch went again plain
    /// (``outcome`` is the plain request's): its endpoint is to be sent plain bodies from now on.
    public var compressionRefused: Bool
    /// When the request started (set by the delivery worker, for the timeline's `batched` step).
    var requestStartedAt: Date?

    /// Creates a result.
    public init(_ outcome: DeliveryOutcome, rejectedEvents: [UUID: String] = [:], statusCode: Int? = nil,
                compressionRefused: Bool = false) {
        self.outcome = outcome
        self.rejectedEvents = rejectedEvents
        self.statusCode = statusCode
        self.compressionRefused = compressionRefused
    }

    /// Every event was acknowledged.
    public static let delivered = DeliveryResult(.delivered)
}
