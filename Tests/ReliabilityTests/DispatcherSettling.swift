@testable import Dispatcher
import Foundation

extension Dispatcher {
    /// Flushes again and again until nothing is pending, in flight or waiting in memory, or
    /// until `timeout` seconds passed.
    /// - Returns: whether everything settled (delivered or rejected) in time.
    func flushUntilSettled(timeout: TimeInterval) async -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        var rounds = 0
        while Date() < deadline, rounds < 10_000 {
            rounds += 1
            let report = await drain(timeout: max(0.1, deadline.timeIntervalSinceNow)).report
            let counts = store?.counts() ?? StoreCounts()
            if storage == .available, counts.pending + counts.inFlight == 0, counters.buffered == 0 { return true }
            if report.delivered == 0 { try? await Task.sleep(nanoseconds: 50_000_000) }
        }
        return false
    }

    /// Every stored event id, paging through the store.
    func storedIDs(status: EventStatus? = nil) throws -> [UUID] {
        guard let store else { return [] }
        var ids: [UUID] = []
        while true {
            let page = try store.query(StoreQuery(status: status, limit: 5_000, offset: ids.count))
            if page.isEmpty { return ids }
            ids.append(contentsOf: page.map(\.event.id))
        }
    }
}
