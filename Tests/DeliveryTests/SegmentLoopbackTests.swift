@testable import DataQuality
@testable import Dispatcher
import Foundation
import Testing
import TestSupport
import Tracking

/// A hydrated event as the data-quality stage leaves it.
private func hydratedEvent() throws -> TrackedEvent {
    let device = DeviceInfo(osType: "ios", osName: "iOS", osVersion: "17.4.1", manufacturer: "Apple Inc.",
                            model: "iPhone15,2", locale: "en_001", language: "en", timeZone: "Europe/Berlin")
    let hydrator = ContextHydrator(application: ApplicationInfo(name: "Shop", version: "2.4.1", build: "812"), device: device)
    return try #require(hydrator.processed(TrackedEvent(category: "Cart", name: "checkout", action: "pay", userData: ["quantity": 2])))
}

@Suite("Segment and Snowplow requests as a real collector on 127.0.0.1 receives them", .serialized, .runsAlone)
struct SegmentLoopbackTests {
    @Test("a hydrated event: library once in context, a BCP 47 locale, User-Agent and Basic auth")
    func hydratedEventWithBasicAuthentication() async throws {
        let server = try LoopbackHTTPServer(lifetime: 20)
        defer { server.stop() }
        let destination = try SegmentDestination(endpoint: server.baseURL, writeKey: "loop-key",
                                                 transport: URLSessionTransport(requestTimeout: 5))
        let event = try hydratedEvent()
        let result = await destination.deliver([DeliveryFixtures.stored(event)], sentAt: Date())
        #expect(result.outcome == .delivered)

        let recorded = try #require(server.requests.first)
        #expect(recorded.headers["user-agent"] == "swift-tracking/" + TrackingLibrary.version)
        #expect(recorded.headers["authorization"] == "Basic " + Data("loop-key:".utf8).base64EncodedString())
        let text = String(decoding: recorded.body, as: UTF8.self)
        #expect(text.components(separatedBy: "\"library\"").count == 2, "library more than once in: \(text)")
        #expect(!text.contains("writeKey"))
        let body = try DeliveryFixtures.object(recorded.body)
        let message = try #require((body["batch"] as? [[String: Any]])?.first)
        let context = try #require(message["context"] as? [String: Any])
        #expect(context["library"] as? [String: String] == ["name": "swift-tracking", "version": TrackingLibrary.version])
        #expect(context["event.library"] == nil)
        #expect(context["locale"] as? String == "en-001")
        #expect(context.keys.filter { $0.contains("library") } == ["library"])
    }

    @Test("with .body: no Authorization header, the key in the body's writeKey")
    func bodyAuthentication() async throws {
        let server = try LoopbackHTTPServer(lifetime: 20)
        defer { server.stop() }
        let destination = try SegmentDestination(endpoint: server.baseURL, writeKey: "loop-body-key", authentication: .body,
                                                 transport: URLSessionTransport(requestTimeout: 5))
        let result = await destination.deliver([DeliveryFixtures.stored(try hydratedEvent())], sentAt: Date())
        #expect(result.outcome == .delivered)
        let recorded = try #require(server.requests.first)
        #expect(recorded.headers["authorization"] == nil)
        #expect(recorded.headers["user-agent"] == "swift-tracking/" + TrackingLibrary.version)
        #expect(try DeliveryFixtures.object(recorded.body)["writeKey"] as? String == "loop-body-key")
    }

    @Test("Snowplow requests carry the same User-Agent")
    func snowplowUserAgent() async throws {
        let server = try LoopbackHTTPServer(lifetime: 20)
        defer { server.stop() }
        let destination = try SnowplowDestination(endpoint: server.baseURL, appID: "shop",
                                                  transport: URLSessionTransport(requestTimeout: 5))
        let result = await destination.deliver([DeliveryFixtures.stored(try hydratedEvent())], sentAt: Date())
        #expect(result.outcome == .delivered)
        let recorded = try #require(server.requests.first)
        #expect(recorded.headers["user-agent"] == DestinationLibrary.tracking.userAgent)
        #expect(recorded.headers["user-agent"] == "swift-tracking/" + TrackingLibrary.version)
    }
}
