import Foundation
import Onboarding
import Testing
import Tracking
import TrackingTestKit

/// Onboarding's event type: category, valid pairs, and the compile-time-safe events.
struct OnboardingAnalyticsTests {
    @Test func categoryIsOnboarding() {
        #expect(OnboardingAnalytics.category == "Onboarding")
    }

    @Test func validPairsAreExactlyTheDeclaredOnes() {
        let valid = OnboardingAnalytics.Name.allCases.flatMap { name in
            OnboardingAnalytics.Action.allCases
                .filter { OnboardingAnalytics.isValid(name: name, action: $0) }
                .map { "\(name.rawValue)/\($0.rawValue)" }
        }
        #expect(valid == [
            "registration/tapped", "registration/entered", "registration/submitted",
            "consents/clicked", "consents/submitted",
            "login/tapped", "login/entered", "login/submitted",
        ])
    }

    @Test(arguments: [
        OnboardingEvent.registrationStarted, .registrationFieldEntered(.email), .registrationSubmitted(fields: [.email]),
        .consentToggled(.legal, granted: true), .consentsSubmitted(ConsentChoices()), .loginStarted,
        .loginFieldEntered(.password), .loginSubmitted(succeeded: true),
    ])
    func everyOnboardingEventIsAValidPair(event: OnboardingEvent) {
        #expect(OnboardingAnalytics.isValid(name: event.name, action: event.action))
    }

    @Test func anInvalidPairIsFlaggedAndStillDelivered() throws {
        let recorder = RecordingPlugin()
        let reporter = EventReporter<OnboardingAnalytics>(plugins: [recorder], violationHandler: .silent)
        reporter.send(name: .consents, action: .tapped)
        let event = try #require(recorder.events.first)
        #expect(event.flags == [.invalidPair(name: "consents", action: "tapped")])
    }
}
