import Foundation
import Tracking

/// How much the Dispatcher holds and how it batches deliveries.
///
/// Every value is checked by ``validate()``; the Dispatcher refuses an impossible configuration
/// with a `ConfigurationError` naming the field, instead of misbehaving.
public struct BatchConfiguration: Sendable, Equatable, Codable {
    /// The most events the store holds. Past it the oldest pending events are evicted, counted
    /// and reported. Default 1,000,000: the byte budget is the bound that usually applies.
    public var maxQueueSize: Int
    /// The byte budget. The store holds at most this many bytes of events (evicting the oldest
    /// pending past it, counted and reported), and the journal, the durable queue in front of
    /// the store, holds at most this many bytes of segment files (the journal's byte bound).
    /// Default 256 MiB: about a million typical events of 200–250 bytes, and over 400,000 with
    /// a hydrated context, so a burst of 300,000 as fast as 8 threads can send fits whole even
    /// if the store falls behind.
    public var maxQueueBytes: Int
    /// The most events held in memory while the journal cannot take them (the store cannot be
    /// opened, the journal's budget or the disk is full). Past it new events are refused,
    /// counted by ``RefusalReason`` and reported. Default 10,000.
    public var overflowQueueSize: Int
    /// The most events in one delivery request; reaching this many pending events also triggers
    /// a delivery. Default 100.
    public var deliverySize: Int
    /// Seconds between timed deliveries while events are pending (the timer starts with the
    /// first pending event and stops when a delivery leaves none); 0 turns the timer off. Default 30.
    public var flushInterval: TimeInterval
    /// How many first events of a run are delivered at once with ``BatchDispatchStrategy/initialEvents``. Default 3.
    public var initialEventsCount: Int

    /// Creates a configuration; every argument has a sensible default.
    public init(
        maxQueueSize: Int = 1_000_000,
        maxQueueBytes: Int = 256 << 20,
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

    private enum CodingKeys: String, CodingKey, CaseIterable {
        case maxQueueSize, maxQueueBytes, overflowQueueSize, deliverySize, flushInterval, initialEventsCount
    }

    /// Decodes batch settings from JSON: absent keys keep their defaults, unknown keys are errors
    /// (a typo must not silently fall back to a default).
    public init(from decoder: any Decoder) throws {
        try ConfigurationDecoder.rejectUnknownKeys(CodingKeys.self, in: decoder)
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let defaults = BatchConfiguration()
        maxQueueSize = try container.decodeIfPresent(Int.self, forKey: .maxQueueSize) ?? defaults.maxQueueSize
        maxQueueBytes = try container.decodeIfPresent(Int.self, forKey: .maxQueueBytes) ?? defaults.maxQueueBytes
        overflowQueueSize = try container.decodeIfPresent(Int.self, forKey: .overflowQueueSize) ?? defaults.overflowQueueSize
        deliverySize = try container.decodeIfPresent(Int.self, forKey: .deliverySize) ?? defaults.deliverySize
        flushInterval = try container.decodeIfPresent(Double.self, forKey: .flushInterval) ?? defaults.flushInterval
        initialEventsCount = try container.decodeIfPresent(Int.self, forKey: .initialEventsCount) ?? defaults.initialEventsCount
    }

    /// Throws a `ConfigurationError` naming the first impossible field.
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
