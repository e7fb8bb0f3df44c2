import Foundation
import Onboarding
import Testing
import Tracking
import TrackingTestKit

/// The onboarding journey, compared with its recorded snapshot.
struct OnboardingJourneyTests {
    static let snapshot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent()
        .appendingPathComponent("__Snapshots__/onboarding-journey.txt")

    /// Register, first forget legal, then accept it with marketing, then log in.
    static func journey() -> [TrackedEvent] {
        let recorder = RecordingPlugin()
        let flow = OnboardingFlow(reporter: EventReporter(plugins: [recorder]))
        flow.startRegistration()
        flow.enter(.email)
        flow.enter(.password)
        flow.submitRegistration()
        flow.submitConsents()
        flow.setConsent(.legal, granted: true)
        flow.setConsent(.marketing, granted: true)
        flow.submitConsents()
        flow.startLogin()
        flow.enter(.email)
        flow.enter(.password)
        flow.submitLogin(succeeded: true)
        return recorder.events
    }

    @Test func journeyMatchesItsSnapshot() throws {
        let events = Self.journey()
        try JourneySnapshot.assertMatches(events, file: Self.snapshot)
        #expect(events.count == 12)
    }

    @Test func aChangedJourneyThrowsAReadableDiff() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("OnboardingTests-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("journey.txt")
        let events = Self.journey()
        try JourneySnapshot.assertMatches(events, file: file, environment: [:])

        let error = try #require(throws: JourneySnapshotMismatch.self) {
            try JourneySnapshot.assertMatches(Array(events.dropLast()), file: file, environment: [:])
        }
        #expect(error.description.contains("- #11: Onboarding/login/submitted {\"success\":true}"))
        #expect(error.description.contains("+ #11: "))
    }
}
