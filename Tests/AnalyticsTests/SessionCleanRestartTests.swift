import Analytics
import Foundation
import Testing
import TestSupport
import Tracking
import TrackingTestKit

/// A clean close saves the session, so the next start continues its event index.
@Suite("Session event index across a clean restart", .runsAlone)
struct SessionCleanRestartTests {
    @Test("close() then a new start within the timeout: same session, the event index goes on")
    func cleanRestartContinuesTheEventIndex() async throws {
        let directory = try TemporaryDirectory(prefix: "analytics-session-restart")
        defer { directory.remove() }
        let firstRecorder = RecordingPlugin()
        let first = try Analytics(configuration: fastConfiguration(directory), plugins: [firstRecorder])
        await first.ready()
        for _ in 0..<3 { first.reporter(for: Shop.self).send(name: .pay, action: .tap) }
        await first.close()
        let before = try #require(firstRecorder.events.last?.context["session"]?.members)
        #expect(before["eventIndex"] == 3)

        let secondRecorder = RecordingPlugin()
        let second = try Analytics(configuration: fastConfiguration(directory), plugins: [secondRecorder])
        await second.ready()
        second.reporter(for: Shop.self).send(name: .pay, action: .tap)
        await second.close()
        let after = try #require(secondRecorder.events.last?.context["session"]?.members)
        #expect(after["id"] == before["id"])
        #expect(after["eventIndex"] == 4)
    }
}
