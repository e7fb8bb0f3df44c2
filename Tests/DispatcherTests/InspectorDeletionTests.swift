@testable import Dispatcher
import Foundation
import TestSupport
import Testing
import Tracking

/// What a purge deletes leaves the pages that watch: the stream starts them again from the
/// listing, without the deleted events.
@Suite("Inspector stream: deleted events leave the page", .runsAlone)
struct InspectorDeletionTests {
    @Test("purge() while a stream is open: a reset without the purged events follows")
    func purgeResetsTheStream() async throws {
        let directory = try TemporaryDirectory(prefix: "inspector-purge")
        let dispatcher = try Dispatcher(configuration: DispatcherConfiguration(storePath: directory.file("store.sqlite").path))
        let server = try InspectorServer.start(dispatcher: dispatcher)
        defer { server.stop() }
        let events = (0..<3).map { index in TrackedEvent(category: "Checkout", name: "view-\(index)", action: "open") }
        _ = dispatcher.send(contentsOf: events)
        _ = await dispatcher.drain(timeout: 5)

        let stream = try InspectorTestStream(port: server.port)
        let first = try #require(stream.next(timeout: 3))
        #expect((first.json["events"] as? [[String: Any]])?.count == 3)
        try await dispatcher.purge()
        let reset = stream.first(within: 3) { $0.event == "events" && $0.json["reset"] as? Bool == true }
        #expect(reset != nil, "no reset after the purge")
        #expect((reset?.json["events"] as? [[String: Any]])?.isEmpty == true, "purged events are still streamed")
        await dispatcher.close()
    }
}
