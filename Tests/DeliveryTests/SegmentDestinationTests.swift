@testable import Dispatcher
import DispatcherTestKit
import Foundation
import Testing
import Tracking

@Suite("Segment destination wire format")
struct SegmentDestinationTests {
    let endpoint = URL(string: "https://api.segment.example")!

    @Test("a batch is POST /v1/batch with track messages, Basic auth and sentAt")
    func wireFormat() async throws {
        let spy = SpyTransport()
        let destination = try SegmentDestination(endpoint: endpoint, writeKey: "wk_secret_123", transport: spy)
        let event = DeliveryFixtures.trackedEvent()
        let sentAt = Date(timeIntervalSince1970: 1_795_255_260.5)
        let result = await destination.deliver([DeliveryFixtures.stored(event)], sentAt: sentAt)
        #expect(result == DeliveryResult(.delivered, statusCode: 200))

        let request = try #require(spy.requests.first)
        #expect(request.method == "POST")
        #expect(request.url.absoluteString == "https://api.segment.example/v1/batch")
        #expect(request.header("content-type") == "application/json")
        #expect(request.header("authorization") == "Basic " + Data("wk_secret_123:".utf8).base64EncodedString())
        #expect(request.header("user-agent") == "swift-tracking/" + TrackingLibrary.version)

        let body = try DeliveryFixtures.object(request.body)
        #expect(body["sentAt"] as? String == "2026-11-21T10:01:00.500Z")
        #expect(body["writeKey"] == nil)
        let batch = try #require(body["batch"] as? [[String: Any]])
        #expect(batch.count == 1)
        let message = try #require(batch.first)
        #expect(message["type"] as? String == "track")
        #expect(message["event"] as? String == "Cart checkout pay")
        #expect(message["messageId"] as? String == event.id.uuidString.lowercased())
        #expect(message["timestamp"] as? String == "2026-11-21T10:00:00.123Z")
        #expect(message["anonymousId"] as? String == "5f0c1d2e-3a4b-4c5d-8e6f-7a8b9c0d1e2f")
        #expect(message["userId"] as? String == "user-42")
        let properties = try #require(message["properties"] as? [String: Any])
        #expect(properties["category"] as? String == "Cart")
        #expect(properties["name"] as? String == "checkout")
        #expect(properties["action"] as? String == "pay")
        #expect(properties["cardType"] as? String == "Mastercard")
        #expect(properties["quantity"] as? Int == 3)
        #expect(properties["total"] as? Double == 19.99)
        #expect(properties["gift"] as? Bool == true)
        let context = try #require(message["context"] as? [String: Any])
        let library = try #require(context["library"] as? [String: Any])
        #expect(library["name"] as? String == "swift-tracking")
        #expect(library["version"] as? String == TrackingLibrary.version)
        #expect(context["appVersion"] as? String == "1.2.3")
        #expect(context["snowplowEntities"] == nil)
        let flags = try #require(context["flags"] as? [[String: Any]])
        #expect(flags.first?["code"] as? String == "unknown_field")
        #expect(flags.first?["detail"] as? String == "coupon")
    }

    @Test("colliding userData and context keys are renamed, never duplicated; the context's library is not repeated")
    func collisions() throws {
        let destination = try SegmentDestination(endpoint: endpoint, writeKey: "k", transport: SpyTransport(),
                                                 fallbackAnonymousID: "fallback-anon")
        let event = DeliveryFixtures.trackedEvent(
            userData: ["category": "shoes", "name": "boot"], context: ["library": "other", "flags": 1, "anonymousId": 7])
        let (request, rejected) = destination.makeRequest(for: [DeliveryFixtures.stored(event)], sentAt: Date())
        #expect(rejected.isEmpty)
        let body = try DeliveryFixtures.object(try #require(request).body)
        let message = try #require((body["batch"] as? [[String: Any]])?.first)
        let properties = try #require(message["properties"] as? [String: Any])
        #expect(properties["category"] as? String == "Cart")
        #expect(properties["userData.category"] as? String == "shoes")
        #expect(properties["userData.name"] as? String == "boot")
        let context = try #require(message["context"] as? [String: Any])
        #expect(context["library"] as? [String: String] == ["name": "swift-tracking", "version": TrackingLibrary.version])
        #expect(context["event.library"] == nil)
        #expect(context["event.flags"] as? Int == 1)
        // A non-string anonymousId is not usable: the fallback is sent instead.
        #expect(message["anonymousId"] as? String == "fallback-anon")
        #expect(message["userId"] == nil)
        let text = String(decoding: try #require(request).body, as: UTF8.self)
        #expect(text.components(separatedBy: "\"category\":").count == 2)
    }

    @Test("an event over the per-event limit is rejected alone; the rest is sent")
    func perEventLimit() async throws {
        let spy = SpyTransport()
        let destination = try SegmentDestination(endpoint: endpoint, writeKey: "k", transport: spy, maxEventBytes: 2_000)
        let small = DeliveryFixtures.trackedEvent()
        let huge = DeliveryFixtures.trackedEvent(userData: ["blob": .string(String(repeating: "z", count: 5_000))])
        let result = await destination.deliver(
            [DeliveryFixtures.stored(small), DeliveryFixtures.stored(huge, sequence: 2)], sentAt: Date())
        #expect(result.outcome == .delivered)
        #expect(Array(result.rejectedEvents.keys) == [huge.id])
        #expect(result.rejectedEvents[huge.id]?.contains("2000-byte limit") == true)
        let batch = try DeliveryFixtures.object(try #require(spy.requests.first).body)["batch"] as? [[String: Any]]
        #expect(batch?.map { $0["messageId"] as? String } == [small.id.uuidString.lowercased()])
    }

    @Test("a body over the request limit is too large without sending")
    func requestLimit() async throws {
        let spy = SpyTransport()
        let destination = try SegmentDestination(endpoint: endpoint, writeKey: "k", transport: spy, maxRequestBytes: 1_000)
        let rows = (1...3).map { DeliveryFixtures.stored(DeliveryFixtures.trackedEvent(), sequence: Int64($0)) }
        let result = await destination.deliver(rows, sentAt: Date())
        guard case .tooLarge = result.outcome else {
            Issue.record("expected tooLarge, got \(result.outcome)")
            return
        }
        #expect(spy.requests.isEmpty)
    }

    @Test("with .body the write key is the batch's writeKey field and there is no Authorization header")
    func writeKeyInTheBody() async throws {
        let secret = "wk_BODY_secret_555"
        let spy = SpyTransport()
        let destination = try SegmentDestination(endpoint: endpoint, writeKey: secret, authentication: .body, transport: spy,
                                                 library: DestinationLibrary(name: "shop-tracking", version: "2.0"))
        #expect(destination.authentication == .body)
        let result = await destination.deliver([DeliveryFixtures.stored(DeliveryFixtures.trackedEvent())], sentAt: Date())
        #expect(result.outcome == .delivered)
        let request = try #require(spy.requests.first)
        #expect(request.header("authorization") == nil)
        #expect(request.header("user-agent") == "shop-tracking/2.0")
        let body = try DeliveryFixtures.object(request.body)
        #expect(body["writeKey"] as? String == secret)
        #expect((body["batch"] as? [[String: Any]])?.count == 1)

        var dumped = ""
        dump(destination, to: &dumped)
        for text in [destination.description, destination.debugDescription, String(describing: destination),
                     String(reflecting: destination), dumped, request.description, "\(result)"] {
            #expect(!text.contains(secret), "leaked in: \(text)")
        }
    }

    @Test("the write key never appears in descriptions, mirrors or errors")
    func writeKeyIsNeverPrinted() async throws {
        let secret = "wk_SUPER_secret_987"
        let encoded = Data((secret + ":").utf8).base64EncodedString()
        let spy = SpyTransport(responses: [
            .success(HTTPResponse(statusCode: 401, body: Data("bad key".utf8))),
            .failure(.network("connection refused")),
        ])
        let destination = try SegmentDestination(endpoint: endpoint, writeKey: secret, transport: spy)
        var dumped = ""
        dump(destination, to: &dumped)
        let row = DeliveryFixtures.stored(DeliveryFixtures.trackedEvent())
        let rejected = await destination.deliver([row], sentAt: Date())
        let failed = await destination.deliver([row], sentAt: Date())
        let texts = [
            destination.description, destination.debugDescription, String(describing: destination),
            String(reflecting: destination), dumped, "\(rejected)", "\(failed)",
            spy.requests.map(\.description).joined(),
        ]
        for text in texts {
            #expect(!text.contains(secret), "leaked in: \(text)")
            #expect(!text.contains(encoded), "leaked in: \(text)")
        }
        #expect(rejected.outcome == .endpointRefused(reason: "HTTP 401: the collector refused the credentials"))
        #expect(failed.outcome == .retry(reason: "network error: connection refused", retryAfter: nil))
    }

    @Test("plain HTTP is refused unless the host is loopback")
    func httpsEnforced() throws {
        #expect(throws: EndpointError.insecure("http://api.segment.example")) {
            try SegmentDestination(endpoint: URL(string: "http://api.segment.example")!, writeKey: "k")
        }
        let local = try SegmentDestination(endpoint: URL(string: "http://127.0.0.1:8080/")!, writeKey: "k")
        #expect(local.batchURL.absoluteString == "http://127.0.0.1:8080/v1/batch")
    }
}
