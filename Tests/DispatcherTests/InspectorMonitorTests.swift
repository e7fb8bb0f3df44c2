@testable import Dispatcher
import Foundation
import TestSupport
import Testing
import Tracking

/// The inspector over a store on disk, read-only, as `demo monitor` reads it.
@Suite("Inspector over a StoreMonitor (read-only)", .serialized, .runsAlone)
struct InspectorMonitorTests {
    @Test("Lists the events of a store a Dispatcher wrote and closed; detail has no wire format; nothing is written")
    func readOnlyStore() async throws {
        let directory = try TemporaryDirectory(prefix: "inspector-monitor")
        let path = directory.file("store.sqlite").path
        let dispatcher = try Dispatcher(configuration: DispatcherConfiguration(storePath: path))
        let events = (0..<3).map { index in
            TrackedEvent(category: "Checkout", name: "view", action: "open", userData: ["index": .int(index)])
        }
        _ = dispatcher.send(contentsOf: events)
        await dispatcher.close()
        let before = try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted()

        let monitor = try StoreMonitor(storePath: path)
        defer { monitor.close() }
        let server = try InspectorServer.start(monitor: monitor)
        defer { server.stop() }
        let list = try InspectorTestClient.get("/api/events", port: server.port)
        #expect(list.status == 200)
        #expect(list.json["readOnly"] as? Bool == true)
        let listed = (list.json["events"] as? [[String: Any]] ?? []).compactMap { $0["id"] as? String }
        #expect(Set(listed) == Set(events.map { EventID.text($0.id) }))
        #expect(list.json["total"] as? Int == 3)

        let detail = try InspectorTestClient.get("/api/events/\(EventID.text(events[1].id))", port: server.port).json
        #expect((detail["summary"] as? [String: Any])?["status"] as? String == "pending")
        #expect(detail["format"] is NSNull)
        #expect(detail["wire"] is NSNull)
        #expect((detail["userData"] as? [String: Any])?["index"] as? Int == 1)
        #expect((detail["timeline"] as? [[String: Any]])?.first?["step"] as? String == "created")

        let health = try InspectorTestClient.get("/api/health", port: server.port).json
        #expect(health["readOnly"] as? Bool == true)
        #expect((health["queue"] as? [String: Int])?["depth"] == 3)
        #expect((health["rates"] as? [Any])?.isEmpty == true)

        let stream = try InspectorTestStream(port: server.port)
        let reset = try #require(stream.next(timeout: 2))
        #expect((reset.json["events"] as? [[String: Any]])?.count == 3)
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted() == before, "the monitor wrote a file")
    }

    @Test("Events a crash left only in the journal are listed, as pending and in the journal")
    func journalResidentEvents() async throws {
        let directory = try TemporaryDirectory(prefix: "inspector-journal")
        let path = directory.file("store.sqlite").path
        let dispatcher = try Dispatcher(configuration: DispatcherConfiguration(storePath: path))
        // The writer stops as in a crash: what is sent next stays in the journal.
        dispatcher.backend?.ingest.simulateCrash()
        let events = (0..<2).map { _ in TrackedEvent(category: "Checkout", name: "pay", action: "tap") }
        _ = dispatcher.send(contentsOf: events)

        let monitor = try StoreMonitor(storePath: path)
        defer { monitor.close() }
        let server = try InspectorServer.start(monitor: monitor)
        defer { server.stop() }
        let listed = try InspectorTestClient.get("/api/events", port: server.port).json["events"] as? [[String: Any]] ?? []
        let byID = Dictionary(listed.compactMap { event in (event["id"] as? String).map { ($0, event) } }, uniquingKeysWith: { first, _ in first })
        for event in events {
            let summary = byID[EventID.text(event.id)]
            #expect(summary?["inJournal"] as? Bool == true && summary?["status"] as? String == "pending", "\(listed)")
        }
    }
}
