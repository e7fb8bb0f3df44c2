@testable import Dispatcher
import Foundation
import TestSupport
import Testing
import Tracking

/// `Dispatcher.records` shows an event as soon as `send` returned, while it is still only in the
/// journal (the writer moves it to SQLite a moment later).
@Suite("Dispatcher.records includes the journal", .serialized, .runsAlone)
struct RecordsJournalTests {
    @Test("Every event whose send returned is listed at once, pending, exactly once")
    func recordsRightAfterSend() async throws {
        let directory = try TemporaryDirectory(prefix: "records-journal")
        defer { directory.remove() }
        let dispatcher = try Dispatcher(configuration: DispatcherConfiguration(
            storePath: directory.file("store.sqlite").path, batch: BatchConfiguration(maxQueueSize: 1_000_000, maxQueueBytes: 1 << 30)))
        let events = (0..<20_000).map { index in
            TrackedEvent(category: "Checkout", name: "view", action: "open", userData: ["index": .int(index)])
        }
        let receipts = dispatcher.send(contentsOf: events)
        #expect(receipts.count == events.count)
        let records = try dispatcher.records(StoreQuery(limit: 1_000_000))
        let listed = records.map(\.id)
        let missing = Set(events.map(\.id)).subtracting(listed).count
        #expect(missing == 0, "\(missing) of \(events.count) sent events are not listed")
        #expect(Set(listed).count == listed.count, "an event is listed twice")
        #expect(records.allSatisfy { $0.status == .pending })
        _ = await dispatcher.drain(timeout: 30)
        await dispatcher.close()
    }
}
