import Foundation
import Tracking

/// How much the Dispatcher holds and how it batches deliveries.
///
/// Every value is checked by ``validate()``; the Dispatcher refuses an impossible configuration
/// with a ``ConfigurationError`` naming the field, instead of misbehaving.
public struct BatchConfig: Sendable, Equatable, Codable {
    /// The most events the store holds. Past it the oldest pending events are evicted, counted
    /// and reported. Default 100,000.
    public var maxQueueSize: Int
    /// The most bytes of events the store holds, evicting the oldest pending past it. Default 64 MiB.
    public var maxQueueBytes: Int
    /// The most events held in memory while the store cannot be written (full disk, read-only
    /// folder). Past it new events are dropped, counted and reported. Default 10,000.
    public var overflowQueueSize: Int
    /// The most events in one delivery request; reaching this many pending events also triggers
    /// a delivery. Default 100.
    public var deliverySize: Int
    /// Seconds between timed deliveries; 0 turns the timer off. Default 30.
    public var flushInterval: TimeInterval
    /// How many first events of a run are delivered at once with ``BatchDispatchStrategy/initialEvents``. Default 3.
    public var initialEventsCount: Int

    /// Creates a configuration; every argument has a sensible default.
    public init(
        maxQueueSize: Int = 100_000,
        maxQueueBytes: Int = 64 << 20,
        overflowQueueSize: Int = 10_000,
        deliverySize: Int = 100,
        flushInterval: TimeInterval = 30,
        initialEventsCount: Int = 3
    ) {
        self.maxQueueSize = maxQueueSize
        self.maxQueueBytes = maxQueueBytes
        self.overflowQueueSize = overflowQueueSize
        self.deliverySize = deliverySize
        self.flushInterval = flushInterval
        self.initialEventsCount = initialEventsCount
    }

    /// Throws a ``ConfigurationError`` naming the first impossible field.
    public func validate() throws {
        if maxQueueSize < 1 { throw ConfigurationError(field: "maxQueueSize", reason: "must be at least 1, got \(maxQueueSize)") }
        if maxQueueBytes < 1024 { throw ConfigurationError(field: "maxQueueBytes", reason: "must be at least 1024, got \(maxQueueBytes)") }
        if overflowQueueSize < 0 { throw ConfigurationError(field: "overflowQueueSize", reason: "must not be negative, got \(overflowQueueSize)") }
        if deliverySize < 1 || deliverySize > 10_000 {
            throw ConfigurationError(field: "deliverySize", reason: "must be between 1 and 10000, got \(deliverySize)")
        }
        if !flushInterval.isFinite || flushInterval < 0 {
            throw ConfigurationError(field: "flushInterval", reason: "must be a non-negative number of seconds, got \(flushInterval)")
        }
        if initialEventsCount < 0 { throw ConfigurationError(field: "initialEventsCount", reason: "must not be negative, got \(initialEventsCount)") }
    }
}
