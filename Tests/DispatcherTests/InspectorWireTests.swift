@testable import Dispatcher
import Foundation
import TestSupport
import Testing
import Tracking

/// The Detail's `wire`: one event as each destination puts it in a request body, and nothing else.
@Suite("Inspector wire previews: Segment, Snowplow, NDJSON")
struct InspectorWireTests {
    let event = TrackedEvent(category: "Checkout", name: "pay", action: "tap", userData: ["amount": .int(3)])
    var stored: StoredEvent { StoredEvent(sequence: 1, event: EncodedEvent(event), status: .pending, attempts: 0, createdAt: Date()) }

    func object(_ wire: [UInt8]?) throws -> [String: Any] {
        let bytes = try #require(wire)
        return try #require(try JSONSerialization.jsonObject(with: Data(bytes)) as? [String: Any])
    }

    @Test("Segment: the message inside \"batch\", without the write key even when it travels in the body")
    func segment() throws {
        let destination = try SegmentDestination(
            endpoint: try #require(URL(string: "http://127.0.0.1:9")), writeKey: "wk-inspector-secret-1", authentication: .body)
        let (format, wire) = WirePreview.of(stored, in: destination)
        #expect(format == "segment")
        let message = try object(wire)
        #expect(message["messageId"] as? String == EventID.text(event.id))
        #expect(message["batch"] == nil)
        #expect(!String(decoding: try #require(wire), as: UTF8.self).contains("wk-inspector-secret-1"))
        // The same bytes as the message in the request the destination would send.
        let (request, _) = destination.makeRequest(for: [stored], sentAt: Date())
        let body = try #require(request?.body)
        #expect(String(decoding: body, as: UTF8.self).contains(String(decoding: try #require(wire), as: UTF8.self)))
    }

    @Test("Snowplow: the event's element of the payload's \"data\"")
    func snowplow() throws {
        let destination = try SnowplowDestination(endpoint: try #require(URL(string: "http://127.0.0.1:9")), appID: "inspector")
        let (format, wire) = WirePreview.of(stored, in: destination)
        #expect(format == "snowplow")
        let element = try object(wire)
        #expect(element["eid"] as? String == EventID.text(event.id))
        #expect(element["se_ca"] as? String == "Checkout")
        #expect(element["schema"] == nil, "the payload envelope was shown instead of the event")
    }

    @Test("NDJSON: the event's line, without the newline; no destination: no format")
    func ndjson() throws {
        let directory = try TemporaryDirectory(prefix: "inspector-wire")
        let destination = NDJSONFileDestination(fileURL: directory.file("events.ndjson"))
        let (format, wire) = WirePreview.of(stored, in: destination)
        #expect(format == "ndjson")
        #expect(try object(wire)["id"] as? String == EventID.text(event.id))
        #expect(wire?.last != 0x0A)
        #expect(!FileManager.default.fileExists(atPath: directory.file("events.ndjson").path))
        let none = WirePreview.of(stored, in: nil)
        #expect(none.format == nil && none.wire == nil)
    }
}
