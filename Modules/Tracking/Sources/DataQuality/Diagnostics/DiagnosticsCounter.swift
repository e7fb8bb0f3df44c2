/// What the tracker counts about its own work.
public enum DiagnosticsCounter: String, Sendable, Codable, CaseIterable, Hashable {
    /// Events handed to the plugins, after the stages.
    case sent
    /// Events written to durable storage.
    case persisted
    /// Events the collector acknowledged.
    case delivered
    /// Delivery attempts that will be retried.
    case retried
    /// Events the collector refused, or past their attempts or age.
    case rejected
    /// Events evicted to keep the store within its bounds.
    case evicted
    /// Events that carry at least one data-quality flag.
    case flagged
    /// Events a stage stopped before any plugin (opt-out, denied consent).
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
