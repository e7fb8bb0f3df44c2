import Foundation

/// The one decision of whether a ``DeliveryRequest`` calls for a delivery round: the batch is
/// full, the first events of a run, the ``BatchDispatchStrategy`` moments, the timer, a caller.
///
/// A value owned by the ``DeliveryScheduler`` (under its lock), carried from one opening of the
/// storage to the next, so that "the first events of a run" means of the Dispatcher's run.
struct DeliveryDemand: Sendable, Equatable {
    /// The lifecycle moments that call for a round.
    let strategy: BatchDispatchStrategy
    /// Pending events that make a full batch.
    let deliverySize: Int
    /// How many first events of a run are delivered at once, with ``BatchDispatchStrategy/initialEvents``.
    let initialEventsCount: Int
    /// Events committed since the last full batch asked for a round.
    private(set) var pendingSinceFullBatch = 0
    /// Events committed (and replayed) since the run started.
    private(set) var persistedSoFar = 0

    /// The demand of `batch` and `strategy`, nothing counted yet.
    init(strategy: BatchDispatchStrategy, deliverySize: Int, initialEventsCount: Int) {
        self.strategy = strategy
        self.deliverySize = max(1, deliverySize)
        self.initialEventsCount = strategy.contains(.initialEvents) ? max(0, initialEventsCount) : 0
    }

    /// The demand a configuration asks for.
    init(_ batch: BatchConfiguration, strategy: BatchDispatchStrategy) {
        self.init(strategy: strategy, deliverySize: batch.deliverySize, initialEventsCount: batch.initialEventsCount)
    }

    /// Counts what `request` reports and returns whether it calls for a round.
    mutating func admits(_ request: DeliveryRequest) -> Bool {
        switch request {
        case .committed(let count):
            return count > 0 && tally(count)
        case .replayed(let count):
            _ = tally(count)
            return false
        case .opened(let pending):
            return pending > 0 && strategy.contains(.boot)
        case .timer:
            return true
        case .lifecycle(.willEnterForeground):
            return strategy.contains(.willEnterForeground)
        case .lifecycle(.didEnterBackground):
            return strategy.contains(.didEnterBackground)
        case .lifecycle(.reachable):
            return strategy.contains(.reachabilityPings)
        case .lifecycle(.unreachable):
            return false
        case .caller(let events):
            return events > 0
        }
    }

    /// Counts `committed` events; whether they complete a batch or are among the run's first.
    private mutating func tally(_ committed: Int) -> Bool {
        let initial = persistedSoFar < initialEventsCount
        persistedSoFar += committed
        pendingSinceFullBatch += committed
        let full = pendingSinceFullBatch >= deliverySize
        if full { pendingSinceFullBatch = 0 }
        return full || initial
    }
}
