import Foundation

/// An ``InspectorSource`` reading a store on disk through a ``StoreMonitor``: nothing written,
/// events still only in the journal included, no counters of a session, no wire format (there is
/// no configuration), no rates.
struct MonitorInspectorSource: InspectorSource {
    /// The store read.
    let monitor: StoreMonitor

    var isReadOnly: Bool { true }

    func recent(limit: Int) throws -> [MonitorRecord] {
        let held = try monitor.records(StoreQuery(ascending: false, limit: limit))
        let delivered = try monitor.records(StoreQuery(status: .delivered, ascending: false, limit: limit))
        return Self.newestFirst([held, delivered], limit: limit)
    }

    func total() -> Int {
        (try? monitor.count(matching: StoreQuery())) ?? 0
    }

    /// Looks among the newest events first, then reads the whole store a page at a time.
    func detail(of id: UUID) throws -> InspectorDetail? {
        if let record = try recent(limit: 1_000).first(where: { $0.id == id }) {
            return InspectorDetail(record: record, format: nil, wire: nil)
        }
        var found: MonitorRecord?
        do {
            try monitor.export(StoreQuery(), pageSize: 1_000) { page in
                if let record = page.first(where: { $0.id == id }) {
                    found = record
                    throw Found()
                }
            }
        } catch is Found {}
        return found.map { InspectorDetail(record: $0, format: nil, wire: nil) }
    }

    /// Ends an export once the event is found.
    private struct Found: Error {}

    func health() -> InspectorHealth {
        let counts = monitor.counts()
        let delivered = (try? monitor.count(matching: StoreQuery(status: .delivered))) ?? 0
        return InspectorHealth(
            readOnly: true,
            counters: [("sent", 0), ("persisted", counts.total + delivered), ("delivered", delivered), ("refused", 0),
                       ("evicted", counts.evicted), ("rejected", counts.rejected), ("retried", 0), ("flagged", 0)],
            depth: counts.total, bytes: counts.bytes, paused: false, pauseReason: nil, conditions: [])
    }

    /// The store's counters (re-read from the file), and the time in 2-second steps: another
    /// process's writes that leave the counters as they were (a retry) show within 2 seconds.
    func fingerprint() -> [Int] {
        let counts = monitor.counts()
        return [counts.pending, counts.inFlight, counts.rejected, counts.held, counts.evicted, counts.bytes,
                Int(Date().timeIntervalSince1970 / 2)]
    }

    func departures(of ids: Set<UUID>) -> [UUID: String] { [:] }

    func rateTotals() -> (sent: Int, delivered: Int)? { nil }
}
