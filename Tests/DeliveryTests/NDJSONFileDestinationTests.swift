@testable import Dispatcher
import Foundation
import Testing
import TestSupport
import Tracking

@Suite("NDJSON file destination")
struct NDJSONFileDestinationTests {
    @Test("appends one JSON object per event per line, creates folders, mode 0600")
    func appendsLines() async throws {
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        let file = folder.url.appendingPathComponent("outbox/nested/events.ndjson")
        let destination = NDJSONFileDestination(path: "file://" + file.path)
        #expect(destination.fileURL.path == file.path)
        let first = DeliveryFixtures.trackedEvent()
        let second = DeliveryFixtures.trackedEvent(userData: ["line": "a\nb \"quoted\""])
        #expect(await destination.deliver([DeliveryFixtures.stored(first)], sentAt: Date()) == .delivered)
        #expect(await destination.deliver([DeliveryFixtures.stored(second, sequence: 2)], sentAt: Date()) == .delivered)

        let text = try String(contentsOf: file, encoding: .utf8)
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.count == 3 && lines.last == "")
        let object = try DeliveryFixtures.object(Data(lines[0].utf8))
        #expect(object["id"] as? String == first.id.uuidString.lowercased())
        #expect(object["timestamp"] as? String == "2026-11-21T10:00:00.123Z")
        #expect(object["category"] as? String == "Cart")
        #expect(object["name"] as? String == "checkout")
        #expect(object["action"] as? String == "pay")
        #expect((object["userData"] as? [String: Any])?["quantity"] as? Int == 3)
        #expect((object["context"] as? [String: Any])?["userId"] as? String == "user-42")
        #expect(((object["flags"] as? [[String: Any]])?.first)?["code"] as? String == "unknown_field")
        let secondObject = try DeliveryFixtures.object(Data(lines[1].utf8))
        #expect((secondObject["userData"] as? [String: Any])?["line"] as? String == "a\nb \"quoted\"")

        let attributes = try FileManager.default.attributesOfItem(atPath: file.path)
        #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o600)
    }

    @Test("an unwritable location is a retry with the path and cause, not a crash")
    func unwritable() async throws {
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        let blocker = folder.file("not-a-folder")
        try Data("x".utf8).write(to: blocker)
        let destination = NDJSONFileDestination(fileURL: blocker.appendingPathComponent("events.ndjson"))
        let result = await destination.deliver([DeliveryFixtures.stored(DeliveryFixtures.trackedEvent())], sentAt: Date())
        guard case .retry(let reason, nil) = result.outcome else {
            Issue.record("expected a retry, got \(result.outcome)")
            return
        }
        #expect(reason.contains("not-a-folder"))
    }
}
