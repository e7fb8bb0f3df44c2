@testable import Dispatcher
import Foundation
import TestSupport
import Testing
import Tracking

/// The stream's departures when the listing is full: an event evicted from a store holding
/// 1,000 events (as many as a stream follows) is still sent once more as evicted.
@Suite("Inspector stream: departures from a full listing", .serialized, .runsAlone)
struct InspectorDepartureTests {
    @Test("With 1,000 events listed, the one evicted by the next is streamed as evicted")
    func evictedFromFullListing() async throws {
        let directory = try TemporaryDirectory(prefix: "inspector-departures")
        let dispatcher = try Dispatcher(configuration: DispatcherConfiguration(
            storePath: directory.file("store.sqlite").path, batch: BatchConfiguration(maxQueueSize: InspectorStreams.limit)))
        let server = try InspectorServer.start(dispatcher: dispatcher)
        defer { server.stop() }
        let filling = (0..<InspectorStreams.limit).map { index in TrackedEvent(category: "Load", name: "fill-\(index)", action: "add") }
        _ = dispatcher.send(contentsOf: filling)
        let stored = Date().addingTimeInterval(5)
        while dispatcher.counters.store.total < InspectorStreams.limit, stored.timeIntervalSinceNow > 0 { usleep(10_000) }
        try #require(dispatcher.counters.store.total == InspectorStreams.limit)

        let stream = try InspectorTestStream(port: server.port)
        let reset = try #require(stream.next(timeout: 3))
        #expect((reset.json["events"] as? [[String: Any]])?.count == InspectorStreams.limit, "the listing is full")

        _ = dispatcher.send(TrackedEvent(category: "Load", name: "one-more", action: "add"))
        let ids = Set(filling.map { EventID.text($0.id) })
        let evicted = stream.first(within: 3) { message in
            (message.json["events"] as? [[String: Any]] ?? []).contains {
                $0["status"] as? String == "evicted" && ids.contains($0["id"] as? String ?? "")
            }
        }
        #expect(evicted != nil, "the event evicted from a full listing was not streamed as evicted")
        #expect(dispatcher.counters.evicted == 1)
        await dispatcher.close()
    }
}
