import Dispatcher
import DispatcherTestKit
import Foundation
import Testing
import Tracking

/// What an app's own tests can do with the public API alone: run the Dispatcher's real
/// persistence and delivery against a ``RecordingDestination`` and assert on what was sent.
@Suite("DispatcherTestKit through public API")
struct RecordingDestinationTests {
    /// A Dispatcher storing in a fresh folder and delivering only when asked.
    static func makeDispatcher(_ destination: RecordingDestination) throws -> (Dispatcher, URL) {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("testkit-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let configuration = DispatcherConfiguration(
            storePath: folder.appendingPathComponent("events.sqlite").path,
            destination: destination,
            batch: BatchConfiguration(deliverySize: 100, flushInterval: 0, initialEventsCount: 0),
            strategy: []
        )
        return (try Dispatcher(configuration: configuration), folder)
    }

    static func event(_ name: String, _ userData: UserData = [:]) -> TrackedEvent {
        TrackedEvent(category: "Checkout", name: name, action: "tap", userData: userData)
    }

    @Test func eventsSentThroughTheDispatcherReachTheDestinationExactlyOnceInOrder() async throws {
        let destination = RecordingDestination()
        let (dispatcher, folder) = try Self.makeDispatcher(destination)
        defer { try? FileManager.default.removeItem(at: folder) }
        let events = [Self.event("view"), Self.event("pay", ["amount": 12.5, "items": ["a", "b"]]), Self.event("done", ["ok": true])]
        for event in events { #expect(dispatcher.send(event) != nil) }

        let report = await dispatcher.drain(timeout: 20).report

        #expect(report.delivered == 3 && report.rejected == 0)
        let sent = try destination.sentEvents()
        #expect(sent.map(\.id) == events.map(\.id))
        #expect(sent.map(\.name) == ["view", "pay", "done"])
        #expect(sent.map(\.userData) == events.map(\.userData))
        #expect(sent.allSatisfy { $0.category == "Checkout" && $0.action == "tap" })
        #expect(destination.batches.joined().allSatisfy { $0.status == .inFlight && $0.attempts == 0 })
        #expect(dispatcher.counters.store.pending == 0)
        await dispatcher.close()
    }

    @Test func aScriptedAnswerDecidesWhatBecomesOfTheBatch() async throws {
        let destination = RecordingDestination(results: [DeliveryResult(.rejected(reason: "schema"))])
        let (dispatcher, folder) = try Self.makeDispatcher(destination)
        defer { try? FileManager.default.removeItem(at: folder) }
        let refused = [Self.event("first"), Self.event("second")]
        for event in refused { #expect(dispatcher.send(event) != nil) }

        let first = await dispatcher.drain(timeout: 20).report
        #expect(first.rejected == 2 && first.delivered == 0)
        #expect(dispatcher.counters.store.rejected == 2)

        let accepted = Self.event("third")
        #expect(dispatcher.send(accepted) != nil)
        let second = await dispatcher.drain(timeout: 20).report
        #expect(second.delivered == 1)
        #expect(destination.batches.map { $0.map(\.id) } == [refused.map(\.id), [accepted.id]])
        await dispatcher.close()
    }
}
