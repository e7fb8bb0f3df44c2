@testable import Dispatcher
import Foundation
import Testing
import Tracking
import TrackingTestKit

/// A feature for the track line.
private enum Shop: EventType {
    enum Name: String, Sendable { case open }
    enum Action: String, Sendable { case tap }
}

@Suite("NDJSON lines keep the kind of call")
struct NDJSONCallKindTests {
    @Test("a reader tells track, identify and screen apart by the line's category")
    func kindFromLine() throws {
        let recorder = RecordingPlugin()
        let reporter = EventReporter<Shop>(plugins: [recorder])
        reporter.send(name: .open, action: .tap)
        reporter.identify(traits: ["plan": "pro"])
        reporter.screen(name: "Basket", properties: ["items": 1])
        let destination = NDJSONFileDestination(fileURL: URL(fileURLWithPath: "/dev/null"))
        let bytes = destination.encode(recorder.events.map { DeliveryFixtures.stored($0) })
        let lines = String(decoding: bytes, as: UTF8.self).split(separator: "\n")
        let objects = try lines.map { try DeliveryFixtures.object(Data($0.utf8)) }
        #expect(objects.map { EventKind(category: $0["category"] as? String ?? "") } == [.track, .identify, .screen])
        #expect(objects[2]["name"] as? String == "Basket")
        #expect((objects[1]["userData"] as? [String: String]) == ["plan": "pro"])
        // And back through the stored form.
        #expect(try recorder.events.map { try EncodedEvent($0).decoded().kind } == [.track, .identify, .screen])
        #expect(recorder.events.map { EncodedEvent($0).kind } == [.track, .identify, .screen])
    }
}
