import Foundation

/// One step in an event's life, as the monitor shows it.
public struct JourneyStep: Sendable, Equatable, Codable {
    /// What happened.
    public enum Kind: String, Sendable, Codable {
        /// It is in the SQLite store.
        case persisted
        /// A delivery attempt ended (see ``JourneyStep/detail``).
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

/// The journey of each event of the current session, bounded in memory.
///
/// Keeps the most recent ``capacity`` events; older journeys are forgotten (their rows and
/// counters stay in the store).
public final class JourneyLog: @unchecked Sendable {
    // Safe: `journeys` and `order` are only touched while holding `lock`.
    private let lock = NSLock()
    private var journeys: [UUID: [JourneyStep]] = [:]
    private var order: [UUID] = []
    private var orderStart = 0
    /// How many events' journeys are kept.
    public let capacity: Int

    /// Creates a log keeping up to `capacity` journeys.
    public init(capacity: Int = 10_000) { self.capacity = max(1, capacity) }

    /// Appends one step to each of `ids`.
    public func record(_ step: JourneyStep, for ids: some Sequence<UUID>) {
        lock.withLock {
            for id in ids {
                if journeys[id] == nil {
                    order.append(id)
                    if order.count - orderStart > capacity {
                        journeys[order[orderStart]] = nil
                        orderStart += 1
                        if orderStart > capacity {
                            order.removeFirst(orderStart)
                            orderStart = 0
                        }
                    }
                }
                journeys[id, default: []].append(step)
            }
        }
    }

    /// The steps of one event, oldest first; empty when unknown or forgotten.
    public func journey(of id: UUID) -> [JourneyStep] { lock.withLock { journeys[id] ?? [] } }

    /// Every known journey.
    public func all() -> [UUID: [JourneyStep]] { lock.withLock { journeys } }

    /// Forgets everything (purge).
    public func removeAll() {
        lock.withLock {
            journeys.removeAll()
            order.removeAll()
            orderStart = 0
        }
    }
}
