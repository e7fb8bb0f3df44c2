import Foundation

/// Where an ``InspectorServer`` reads what it serves: a live ``Dispatcher``
/// (``DispatcherInspectorSource``) or a store on disk, read-only (``MonitorInspectorSource``).
/// Every call may block on the store: the server calls them on its own queues, never on a
/// sender's thread.
protocol InspectorSource: Sendable {
    /// Whether the source only reads a store (no counters, no delivery, no wire format).
    var isReadOnly: Bool { get }
    /// At most `limit` events, newest first (by creation time).
    func recent(limit: Int) throws -> [MonitorRecord]
    /// How many events the source holds in all (the store's, its delivered history, the journal's).
    func total() -> Int
    /// One event with its wire form, or nil when the source does not hold it.
    func detail(of id: UUID) throws -> InspectorDetail?
    /// The counters, queue and pause state (the server adds diagnostics history and rates).
    func health() -> InspectorHealth
    /// Cheap numbers that change whenever something a stream shows may have changed.
    func fingerprint() -> [Int]
    /// For events that left the listing: `delivered` or `evicted` for those that left for that
    /// reason (the others are left out), looked up at once.
    func departures(of ids: Set<UUID>) -> [UUID: String]
    /// The totals of sent and delivered events the rates are taken from; nil for no rates.
    func rateTotals() -> (sent: Int, delivered: Int)?
}

/// One event as ``InspectorSource/detail(of:)`` finds it.
struct InspectorDetail: Sendable {
    /// The event, its status and timeline.
    var record: MonitorRecord
    /// `segment`, `snowplow` or `ndjson`; nil without a known destination.
    var format: String?
    /// The event as the destination puts it in a request body (JSON bytes), never headers.
    var wire: [UInt8]?
}

/// What ``InspectorSource/health()`` reports.
struct InspectorHealth: Sendable {
    /// Whether the source is read-only.
    var readOnly: Bool
    /// `sent`, `persisted`, `delivered`, `refused`, `evicted`, `rejected`, `retried`, `flagged`, in that order.
    var counters: [(name: String, value: Int)]
    /// Events the store holds.
    var depth: Int
    /// Their approximate bytes.
    var bytes: Int
    /// Whether deliveries are paused.
    var paused: Bool
    /// Why, when paused.
    var pauseReason: String?
    /// The problems that hold now (storage unavailable, a refused endpoint …).
    var conditions: [InspectorCondition]
    /// The diagnostics the source reported lately, oldest first.
    var reported: [DispatcherDiagnostic] = []
}

extension InspectorSource {
    /// The records of `lists` merged newest first (by creation time, then list order), each id
    /// once (its first occurrence), at most `limit`.
    static func newestFirst(_ lists: [[MonitorRecord]], limit: Int) -> [MonitorRecord] {
        var seen = Set<UUID>()
        let unique = lists.joined().filter { seen.insert($0.id).inserted }
        let ordered = unique.enumerated().sorted { left, right in
            left.element.createdAt != right.element.createdAt
                ? left.element.createdAt > right.element.createdAt : left.offset < right.offset
        }
        return Array(ordered.prefix(limit).map(\.element))
    }
}
