/// The bounds of an ``EventStore``: beyond them the oldest pending events are evicted, counted
/// and reported. In-flight and rejected events are never evicted.
struct StoreLimits: Sendable, Equatable {
    /// The most events held (pending, in flight and rejected together).
    var maxEvents: Int
    /// The most bytes held, as the sum of ``EncodedEvent/approximateSize``.
    var maxBytes: Int
    /// How many delivered events the store keeps for the monitor (the most recent); 0 keeps none.
    var deliveredHistory: Int

    /// Creates limits.
    /// - Parameters:
    ///   - maxEvents: the most events held. Defaults to 1,000,000.
    ///   - maxBytes: the most bytes held. Defaults to 512 MiB.
    ///   - deliveredHistory: delivered events kept for the monitor. Defaults to 10,000; 0 disables.
    init(maxEvents: Int = 1_000_000, maxBytes: Int = 512 << 20, deliveredHistory: Int = 10_000) {
        self.maxEvents = max(1, maxEvents)
        self.maxBytes = max(1, maxBytes)
        self.deliveredHistory = max(0, deliveredHistory)
    }

    /// No practical bound on what is held (the delivered history keeps its default size).
    static let unlimited = StoreLimits(maxEvents: .max, maxBytes: .max)
}
