@testable import Dispatcher
import Foundation
import Testing
import TestSupport
import Tracking

/// A burst into a Dispatcher with its default configuration loses nothing, and past the byte
/// budget the oldest events are evicted, counted and reported.
@Suite("Integrity: bursts and the byte budget", .serialized, .runsAlone)
struct BurstTests {
    /// A typical event: four userData fields, like the demo's load mix.
    private static func event(_ index: Int) -> TrackedEvent {
        TrackedEvent(category: "Cart", name: "add", action: "select",
                     userData: ["sku": "sku-\(index % 97)", "quantity": .int(index % 3 + 1), "price": 19.99, "index": .int(index)])
    }

    /// The `index` field of a stored event's userData.
    private static func index(of stored: StoredEvent) -> Int? {
        let object = try? JSONSerialization.jsonObject(with: Data(stored.event.userDataBlob)) as? [String: Any]
        return object?["index"] as? Int
    }

    @Test("300,000 events sent as fast as possible from 8 threads, default configuration: all persisted, none refused or evicted")
    func defaultConfigurationTakesABurst() async throws {
        let directory = try TemporaryDirectory(prefix: "burst")
        defer { directory.remove() }
        let log = DiagnosticLog()
        let dispatcher = try Dispatcher(configuration: DispatcherConfiguration(
            storePath: directory.file("store.sqlite").path, onDiagnostic: log.handler))
        let perThread = 37_500
        let refusedAtSend = await SenderThreads.run(8) { thread in
            var refused = 0
            for index in 0..<perThread where dispatcher.send(Self.event(thread * perThread + index)) == nil { refused += 1 }
            return refused
        }
        let drained = await dispatcher.drain(timeout: 180)
        let counters = dispatcher.counters
        await dispatcher.close()
        #expect(drained.persisted, "\(counters)")
        #expect(refusedAtSend.reduce(0, +) == 0, "refused at send: \(refusedAtSend), \(log.messages.prefix(3))")
        #expect(counters.sent == 300_000 && counters.refused == 0 && counters.evicted == 0, "\(counters)")
        #expect(counters.persisted == 300_000 && counters.store.pending == 300_000, "\(counters)")
    }

    @Test("Past the byte budget the oldest pending events are evicted, counted and reported; the newest stay")
    func evictsTheOldestPastTheBudget() async throws {
        let directory = try TemporaryDirectory(prefix: "budget")
        defer { directory.remove() }
        let log = DiagnosticLog()
        let budget = 64 << 10
        let dispatcher = try Dispatcher(configuration: DispatcherConfiguration(
            storePath: directory.file("store.sqlite").path, batch: BatchConfiguration(maxQueueBytes: budget), onDiagnostic: log.handler))
        let total = 3_000
        for index in 0..<total { #expect(dispatcher.send(Self.event(index)) != nil) }
        #expect(await dispatcher.drain(timeout: 60).persisted)
        let counters = dispatcher.counters
        let stored = try #require(dispatcher.store).query(StoreQuery(limit: total)).compactMap(Self.index(of:))
        await dispatcher.close()
        #expect(counters.refused == 0 && counters.persisted == total, "\(counters)")
        #expect(counters.evicted > 0 && counters.evicted + stored.count == total, "\(counters), \(stored.count) stored")
        #expect(counters.store.bytes <= budget, "\(counters.store)")
        // What stayed is exactly the newest events, in order.
        #expect(stored == Array((total - stored.count)..<total), "kept \(stored.prefix(3))…")
        #expect(log.contains("evicted"), "no eviction diagnostic: \(log.messages)")
    }
}
