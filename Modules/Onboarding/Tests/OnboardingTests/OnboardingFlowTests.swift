import Foundation
import Onboarding
import Testing
import Tracking
import TrackingTestKit

/// The onboarding flow's rules, each through a `RecordingPlugin`.
struct OnboardingFlowTests {
    let recorder = RecordingPlugin()
    var reporter: EventReporter<OnboardingAnalytics> { EventReporter(plugins: [recorder], violationHandler: .silent) }

    /// A flow already on the consent step, with the recorder cleared.
    func flowAtConsents(onConsentsSubmitted: @escaping @Sendable (ConsentChoices) -> Void = { _ in }) -> OnboardingFlow {
        let flow = OnboardingFlow(reporter: reporter, onConsentsSubmitted: onConsentsSubmitted)
        flow.startRegistration()
        flow.enter(.email)
        flow.enter(.password)
        flow.submitRegistration()
        recorder.reset()
        return flow
    }

    @Test func startingRegistrationSendsRegistrationTappedOnce() throws {
        let flow = OnboardingFlow(reporter: reporter)
        #expect(flow.startRegistration())
        #expect(!flow.startRegistration())
        try recorder.expect(OnboardingAnalytics.self, [(.registration, .tapped)])
        #expect(flow.step == .registration)
    }

    @Test func enteringAFieldSendsItsNameNeverItsContent() throws {
        let flow = OnboardingFlow(reporter: reporter)
        flow.startRegistration()
        flow.enter(.email)
        let event = try #require(recorder.events.last)
        #expect(event.name == "registration" && event.action == "entered")
        #expect(event.userData == ["field": "email"])
    }

    @Test func nothingIsSentBeforeTheFlowStarts() throws {
        let flow = OnboardingFlow(reporter: reporter)
        flow.enter(.email)
        #expect(!flow.submitRegistration())
        flow.setConsent(.legal, granted: true)
        #expect(flow.submitConsents() == nil)
        flow.startLogin()
        #expect(!flow.submitLogin(succeeded: true))
        try recorder.expectNothing()
        #expect(flow.step == .notStarted)
    }

    @Test func registrationWithoutPasswordIsNotSubmitted() throws {
        let flow = OnboardingFlow(reporter: reporter)
        flow.startRegistration()
        flow.enter(.email)
        #expect(!flow.submitRegistration())
        try recorder.expect(OnboardingAnalytics.self, [(.registration, .tapped), (.registration, .entered)])
        #expect(flow.step == .registration)
    }

    @Test func registrationSubmittedListsTheFieldsEnteredAsAnArray() throws {
        let flow = OnboardingFlow(reporter: reporter)
        flow.startRegistration()
        flow.enter(.password)
        flow.enter(.displayName)
        flow.enter(.email)
        #expect(flow.submitRegistration())
        let submitted = try #require(recorder.events.last)
        #expect(submitted.action == "submitted")
        #expect(submitted.userData["fields"] == ["email", "password", "displayName"])
        #expect(submitted.userData["fieldCount"] == 3)
        #expect(flow.step == .consents)
    }

    @Test func consentToggleSendsClickedWithTheBooleanChoice() throws {
        let flow = flowAtConsents()
        flow.setConsent(.marketing, granted: true)
        try recorder.expect([ExpectedEvent(OnboardingAnalytics.self, .consents, .clicked, ["consent": "marketing", "granted": true])])
    }

    @Test func consentToggleThatChangesNothingSendsNothing() throws {
        let flow = flowAtConsents()
        flow.setConsent(.marketing, granted: false)
        try recorder.expectNothing()
    }

    @Test func submittingConsentsReportsLegalAndMarketingAndHandsThemOn() throws {
        let received = ChoicesLog()
        let flow = flowAtConsents(onConsentsSubmitted: received.append)
        flow.setConsent(.legal, granted: true)
        let choices = flow.submitConsents()
        #expect(choices == ConsentChoices(legal: true, marketing: false))
        #expect(received.choices == [ConsentChoices(legal: true, marketing: false)])
        let submitted = try #require(recorder.events.last)
        #expect(submitted.userData == ["legal": true, "marketing": false])
        #expect(submitted.userData["marketing"]?.boolValue == false)
        #expect(flow.step == .login)
    }

    @Test func consentsWithoutLegalAreReportedButTheFlowStays() throws {
        let received = ChoicesLog()
        let flow = flowAtConsents(onConsentsSubmitted: received.append)
        flow.setConsent(.marketing, granted: true)
        #expect(flow.submitConsents() == ConsentChoices(legal: false, marketing: true))
        try recorder.expect([
            ExpectedEvent(OnboardingAnalytics.self, .consents, .clicked, ["consent": "marketing", "granted": true]),
            ExpectedEvent(OnboardingAnalytics.self, .consents, .submitted, ["legal": false, "marketing": true]),
        ])
        #expect(received.choices.count == 1)
        #expect(flow.step == .consents)
        flow.startLogin()
        #expect(recorder.events.count == 2)
    }

    @Test func loginSendsTappedEnteredAndSubmittedWithSuccess() throws {
        let flow = flowAtConsents()
        flow.setConsent(.legal, granted: true)
        flow.submitConsents()
        recorder.reset()
        flow.startLogin()
        flow.enter(.email)
        #expect(flow.submitLogin(succeeded: false))
        #expect(flow.step == .login)
        #expect(flow.submitLogin(succeeded: true))
        try recorder.expect([
            ExpectedEvent(OnboardingAnalytics.self, .login, .tapped, [:]),
            ExpectedEvent(OnboardingAnalytics.self, .login, .entered, ["field": "email"]),
            ExpectedEvent(OnboardingAnalytics.self, .login, .submitted, ["success": false]),
            ExpectedEvent(OnboardingAnalytics.self, .login, .submitted, ["success": true]),
        ])
        #expect(flow.step == .finished)
        #expect(!flow.submitLogin(succeeded: true))
        #expect(recorder.events.count == 4)
    }
}

/// Collects the choices handed to `onConsentsSubmitted`, thread-safely.
final class ChoicesLog: Sendable {
    private let recorded = LockedValue<[ConsentChoices]>([])

    /// Appends one set of choices.
    @Sendable func append(_ choices: ConsentChoices) { recorded.withLock { $0.append(choices) } }

    /// What was received, in order.
    var choices: [ConsentChoices] { recorded.withLock { $0 } }
}
