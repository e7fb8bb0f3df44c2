@testable import Dispatcher
import Foundation
import Testing
import TestSupport

/// Every loopback form the documentation allows reaches the collector: an upper-case scheme
/// and the IPv6 loopback in brackets.
@Suite("Loopback forms: HTTP:// and http://[::1]", .serialized, .runsAlone)
struct LoopbackFormsTests {
    @Test("the scheme is matched and returned in lowercase", arguments: [
        ("HTTP://127.0.0.1:9000/x", "http://127.0.0.1:9000/x"), ("Http://[::1]:8080", "http://[::1]:8080"),
        ("HTTPS://api.segment.io", "https://api.segment.io"), ("https://api.segment.io", "https://api.segment.io"),
    ])
    func lowercaseScheme(_ text: String, _ expected: String) throws {
        #expect(try EndpointURL.validate(text).absoluteString == expected)
        #expect(try EndpointURL.validate(URL(string: text)!).absoluteString == expected)
        #expect(throws: EndpointError.self) { try EndpointURL.validate("HTTP://example.com") }
    }

    @Test("a Segment destination delivers to HTTP://127.0.0.1 and to http://[::1]", arguments: [false, true])
    func delivers(_ ipv6: Bool) async throws {
        let collector = try HostileCollector(.respond(status: 200, body: Data(#"{"success":true}"#.utf8)), ipv6: ipv6, lifetime: 20)
        defer { collector.stop() }
        let endpoint = ipv6 ? "http://[::1]:\(collector.port)" : "HTTP://127.0.0.1:\(collector.port)"
        let destination = try SegmentDestination(endpoint: try #require(URL(string: endpoint)), writeKey: "k",
                                                 transport: DefaultHTTPTransport.make(requestTimeout: 5))
        #expect(destination.batchURL.absoluteString.hasPrefix(ipv6 ? "http://[::1]:" : "http://127.0.0.1:"))
        let batch = [DeliveryFixtures.stored(DeliveryFixtures.trackedEvent())]
        let result = await destination.deliver(batch, sentAt: Date())
        #expect(result.outcome == .delivered, "\(endpoint): \(result)")
        #expect(collector.connectionCount == 1)
    }
}
