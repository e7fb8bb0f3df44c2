@testable import Dispatcher
import Foundation
import Testing
import TestSupport
import Tracking
import TrackingTestKit

/// A feature for the track message sent alongside the calls.
private enum Checkout: EventType {
    enum Name: String, Sendable { case pay }
    enum Action: String, Sendable { case tap }
}

/// Events as `EventReporter` makes them, with the identifiers hydration adds.
private func reportedCalls() -> [TrackedEvent] {
    let recorder = RecordingPlugin()
    let hydrate = ClosureProcessor { event in
        var event = event
        event.context["installationId"] = "5f0c1d2e-3a4b-4c5d-8e6f-7a8b9c0d1e2f"
        event.context["userId"] = "user-42"
        event.context["appVersion"] = "1.2.3"
        return event
    }
    let reporter = EventReporter<Checkout>(plugins: [recorder], processors: [hydrate])
    reporter.identify(traits: ["plan": "premium", "logins": 5, "name": "Peter"])
    reporter.screen(name: "Basket", properties: ["items": 3, "category": "shop", "name": "not the screen's"])
    reporter.send(name: .pay, action: .tap, userData: ["total": 9.5])
    return recorder.events
}

@Suite("Segment identify and screen messages, as a collector on 127.0.0.1 receives them", .serialized, .runsAlone)
struct SegmentCallTests {
    @Test("identify has type, traits, userId; screen has type, name, properties; both the common fields")
    func identifyAndScreenOnTheWire() async throws {
        let server = try LoopbackHTTPServer(lifetime: 20)
        defer { server.stop() }
        let destination = try SegmentDestination(endpoint: server.baseURL, writeKey: "loop-key",
                                                 transport: URLSessionTransport(requestTimeout: 5))
        let events = reportedCalls()
        #expect(events.map(\.kind) == [.identify, .screen, .track])
        let rows = events.enumerated().map { DeliveryFixtures.stored($0.element, sequence: Int64($0.offset + 1)) }
        let result = await destination.deliver(rows, sentAt: Date())
        #expect(result.outcome == .delivered)

        let recorded = try #require(server.requests.first)
        #expect(recorded.path == "/v1/batch")
        let batch = try #require(try DeliveryFixtures.object(recorded.body)["batch"] as? [[String: Any]])
        #expect(batch.map { $0["type"] as? String } == ["identify", "screen", "track"])

        let identify = batch[0]
        #expect(Set(identify.keys) == ["type", "messageId", "timestamp", "anonymousId", "userId", "traits", "context"])
        #expect(identify["userId"] as? String == "user-42")
        #expect(identify["anonymousId"] as? String == "5f0c1d2e-3a4b-4c5d-8e6f-7a8b9c0d1e2f")
        #expect(identify["messageId"] as? String == events[0].id.uuidString.lowercased())
        let traits = try #require(identify["traits"] as? [String: Any])
        #expect(traits.count == 3)
        #expect(traits["plan"] as? String == "premium")
        #expect(traits["logins"] as? Int == 5)
        #expect(traits["name"] as? String == "Peter")

        let screen = batch[1]
        #expect(Set(screen.keys) == ["type", "name", "messageId", "timestamp", "anonymousId", "userId", "properties", "context"])
        #expect(screen["name"] as? String == "Basket")
        #expect(screen["userId"] as? String == "user-42")
        #expect(screen["messageId"] as? String == events[1].id.uuidString.lowercased())
        let properties = try #require(screen["properties"] as? [String: Any])
        // The properties are the app's, as they are: no category/name/action added or renamed.
        #expect(properties.count == 3)
        #expect(properties["items"] as? Int == 3)
        #expect(properties["category"] as? String == "shop")
        #expect(properties["name"] as? String == "not the screen's")

        for message in batch {
            let context = try #require(message["context"] as? [String: Any])
            #expect(context["library"] as? [String: String] == ["name": TrackingLibrary.name, "version": TrackingLibrary.version])
            #expect(context["appVersion"] as? String == "1.2.3")
            #expect((context["flags"] as? [Any])?.isEmpty == true)
            #expect((message["timestamp"] as? String)?.hasSuffix("Z") == true)
        }
        #expect(batch[2]["event"] as? String == "Checkout pay tap")
        #expect((batch[2]["properties"] as? [String: Any])?["total"] as? Double == 9.5)
    }

    @Test("without a user id an identify still carries the anonymousId; empty traits are {}; flags travel in context")
    func anonymousIdentifyAndFlaggedScreen() throws {
        let destination = try SegmentDestination(endpoint: URL(string: "https://api.segment.example")!, writeKey: "k",
                                                 fallbackAnonymousID: "anon-1")
        let recorder = RecordingPlugin()
        let reporter = EventReporter<Checkout>(plugins: [recorder], violationHandler: .silent)
        reporter.identify()
        reporter.screen(name: "")
        let rows = recorder.events.map { DeliveryFixtures.stored($0) }
        let (request, rejected) = destination.makeRequest(for: rows, sentAt: Date())
        #expect(rejected.isEmpty)
        let body = try #require(request?.body)
        let batch = try #require(try DeliveryFixtures.object(body)["batch"] as? [[String: Any]])
        #expect(batch[0]["type"] as? String == "identify")
        #expect(batch[0]["userId"] == nil)
        #expect(batch[0]["anonymousId"] as? String == "anon-1")
        #expect((batch[0]["traits"] as? [String: Any])?.isEmpty == true)
        #expect(batch[1]["type"] as? String == "screen")
        #expect(batch[1]["name"] as? String == "")
        #expect((batch[1]["properties"] as? [String: Any])?.isEmpty == true)
        let flags = try #require((batch[1]["context"] as? [String: Any])?["flags"] as? [[String: Any]])
        #expect(flags.first?["code"] as? String == "empty_name")
    }
}
