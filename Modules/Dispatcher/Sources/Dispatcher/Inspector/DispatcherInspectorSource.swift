import Foundation

/// An ``InspectorSource`` reading a live ``Dispatcher``: its store (journal included), this
/// session's timelines, counters, pause state, and its destination's wire format.
struct DispatcherInspectorSource: InspectorSource {
    /// The Dispatcher served.
    let dispatcher: Dispatcher

    var isReadOnly: Bool { false }

    func recent(limit: Int) throws -> [MonitorRecord] {
        let held = try dispatcher.records(StoreQuery(ascending: false, limit: limit))
        let delivered = try dispatcher.records(StoreQuery(status: .delivered, ascending: false, limit: limit))
        return Self.newestFirst([held, delivered], limit: limit)
    }

    func total() -> Int {
        (try? dispatcher.store?.count(matching: StoreQuery())) ?? 0
    }

    func detail(of id: UUID) throws -> InspectorDetail? {
        guard let stored = try dispatcher.inspectorEvent(id) else { return nil }
        let record = MonitorRecord(stored, timeline: dispatcher.timeline(of: id))
        let (format, wire) = WirePreview.of(stored, in: dispatcher.configuration.destination)
        return InspectorDetail(record: record, format: format, wire: wire)
    }

    func health() -> InspectorHealth {
        let counters = dispatcher.counters
        return InspectorHealth(
            readOnly: false,
            counters: [("sent", counters.sent), ("persisted", counters.persisted), ("delivered", counters.delivered),
                       ("refused", counters.refused), ("evicted", counters.evicted), ("rejected", counters.rejected),
                       ("retried", counters.retried), ("flagged", counters.flagged)],
            depth: counters.store.total, bytes: counters.store.bytes,
            paused: dispatcher.isPaused, pauseReason: dispatcher.inspectorPauseReason,
            conditions: dispatcher.inspectorConditions(counters),
            reported: dispatcher.recentDiagnostics)
    }

    func fingerprint() -> [Int] {
        let counters = dispatcher.counters
        let store = counters.store
        return [counters.sent, counters.refused, counters.buffered, counters.persisted, counters.delivered,
                counters.retried, counters.rejected, counters.evicted, counters.flagged,
                store.pending, store.inFlight, store.rejected, store.held]
    }

    func departures(of ids: Set<UUID>) -> [UUID: String] {
        guard !ids.isEmpty else { return [:] }
        return dispatcher.timeline.steps(of: ids).compactMapValues { steps in
            switch steps.last?.kind.rawValue {
            case "delivered": "delivered"
            case "evicted": "evicted"
            default: nil
            }
        }
    }

    func rateTotals() -> (sent: Int, delivered: Int)? {
        let counters = dispatcher.counters
        return (counters.sent, counters.delivered)
    }
}
