/// What the event store holds, read without scanning (the counters live in the store file).
public struct StoreCounts: Sendable, Equatable, CustomStringConvertible {
    /// Events waiting for delivery or their next retry.
    public var pending: Int
    /// Events in the batch being delivered.
    public var inFlight: Int
    /// Events refused or past their attempts: kept until deleted on request.
    public var rejected: Int
    /// The sum of the held events' ``StoredEvent/approximateSize``.
    public var bytes: Int
    /// Events evicted by the queue bounds (``BatchConfiguration``) since the store was created (or purged).
    public var evicted: Int
    /// Events held until consent is known (``EventStatus/held``): never delivered or evicted.
    public var held: Int

    /// Creates counts.
    public init(pending: Int = 0, inFlight: Int = 0, rejected: Int = 0, bytes: Int = 0, evicted: Int = 0, held: Int = 0) {
        self.pending = pending
        self.inFlight = inFlight
        self.rejected = rejected
        self.bytes = bytes
        self.evicted = evicted
        self.held = held
    }

    /// All events the store holds (pending, in flight, rejected and held; not the delivered history).
    public var total: Int { pending + inFlight + rejected + held }

    /// `pending 3, in flight 0, rejected 1, held 0, 1,024 bytes, evicted 0`.
    public var description: String {
        "pending \(pending), in flight \(inFlight), rejected \(rejected), held \(held), \(bytes) bytes, evicted \(evicted)"
    }
}
