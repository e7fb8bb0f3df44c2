/// What the tracker counts about its own work.
public enum DiagnosticsCounter: String, Sendable, Codable, CaseIterable, Hashable {
    /// Events handed to the destinations.
    case sent
    /// Events written to durable storage.
    case persisted
    /// Events a destination acknowledged.
    case delivered
    /// Delivery attempts that will be retried.
    case retried
    /// Events refused by a destination or past their attempts or age.
    case rejected
    /// Events evicted to keep the store within its bounds.
    case evicted
    /// Events that carry at least one data-quality flag.
    case flagged
    /// Events stopped before any destination (opt-out, denied consent).
    case dropped
}

extension DiagnosticsCounter {
    /// The counter's position in ``allCases``: its slot in the diagnostics' counts.
    var slot: Int {
        switch self {
        case .sent: 0
        case .persisted: 1
        case .delivered: 2
        case .retried: 3
        case .rejected: 4
        case .evicted: 5
        case .flagged: 6
        case .dropped: 7
        }
    }
}
