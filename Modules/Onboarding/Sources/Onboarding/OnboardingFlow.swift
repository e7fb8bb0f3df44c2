import Foundation
import Tracking

/// The onboarding flow: registration, then consents, then login. Sends its events at the
/// moments they happen and only when the step allows them.
///
/// Rules:
/// - Each method acts only in its own step; called in another step it changes nothing and
///   sends nothing.
/// - ``submitRegistration()`` needs e-mail and password entered; otherwise nothing is sent.
/// - ``submitConsents()`` always reports both choices (`legal`, `marketing` as booleans), hands
///   them to `onConsentsSubmitted`, and moves on to login only when legal was accepted.
/// - Field events carry the field's name, never its content.
public final class OnboardingFlow: Sendable {
    private let state = LockedValue(State())
    private let reporter: EventReporter<OnboardingAnalytics>
    private let onConsentsSubmitted: @Sendable (ConsentChoices) -> Void

    private struct State {
        var step: OnboardingStep = .notStarted
        var enteredFields: Set<RegistrationField> = []
        var consents = ConsentChoices()
    }

    /// Creates a flow.
    /// - Parameters:
    ///   - reporter: where onboarding's events go.
    ///   - onConsentsSubmitted: called with the user's choices each time the consent step is
    ///     submitted, so the app can apply them (for example to consent management).
    public init(
        reporter: EventReporter<OnboardingAnalytics>,
        onConsentsSubmitted: @escaping @Sendable (ConsentChoices) -> Void = { _ in }
    ) {
        self.reporter = reporter
        self.onConsentsSubmitted = onConsentsSubmitted
    }

    /// The current step.
    public var step: OnboardingStep { state.withLock { $0.step } }

    /// The consent choices as currently set on the consent screen.
    public var consents: ConsentChoices { state.withLock { $0.consents } }

    /// The user tapped "Create account": starts registration. Sends `registration/tapped`.
    /// - Returns: whether the flow started (it does only once).
    @discardableResult
    public func startRegistration() -> Bool {
        let started = state.withLock { state in
            guard state.step == .notStarted else { return false }
            state.step = .registration
            return true
        }
        if started { reporter.send(OnboardingEvent.registrationStarted) }
        return started
    }

    /// The user filled in `field`. Sends `registration/entered` or `login/entered` with the
    /// field's name, depending on the step; nothing in other steps.
    public func enter(_ field: RegistrationField) {
        let step: OnboardingStep = state.withLock { state in
            if state.step == .registration { state.enteredFields.insert(field) }
            return state.step
        }
        switch step {
        case .registration: reporter.send(OnboardingEvent.registrationFieldEntered(field))
        case .login: reporter.send(OnboardingEvent.loginFieldEntered(field))
        case .notStarted, .consents, .finished: break
        }
    }

    /// Submits the registration form. Sends `registration/submitted` with the fields filled in
    /// and moves to consents, but only when e-mail and password were entered.
    /// - Returns: whether registration was submitted.
    @discardableResult
    public func submitRegistration() -> Bool {
        let fields: [RegistrationField]? = state.withLock { state in
            guard state.step == .registration,
                  state.enteredFields.isSuperset(of: [.email, .password]) else { return nil }
            state.step = .consents
            return state.enteredFields.sorted()
        }
        guard let fields else { return false }
        reporter.send(OnboardingEvent.registrationSubmitted(fields: fields))
        return true
    }

    /// Switches one consent on or off. Sends `consents/clicked` with the consent and the new
    /// choice, only on the consent step and only when the choice changes.
    public func setConsent(_ kind: ConsentKind, granted: Bool) {
        let changed = state.withLock { state in
            guard state.step == .consents, state.consents[kind] != granted else { return false }
            state.consents[kind] = granted
            return true
        }
        if changed { reporter.send(OnboardingEvent.consentToggled(kind, granted: granted)) }
    }

    /// Submits the consent step. Sends `consents/submitted` with `legal` and `marketing` as
    /// booleans, calls `onConsentsSubmitted`, and moves to login when legal was accepted.
    /// - Returns: the choices, or `nil` when the flow is not on the consent step.
    @discardableResult
    public func submitConsents() -> ConsentChoices? {
        let choices: ConsentChoices? = state.withLock { state in
            guard state.step == .consents else { return nil }
            if state.consents.legal { state.step = .login }
            return state.consents
        }
        guard let choices else { return nil }
        reporter.send(OnboardingEvent.consentsSubmitted(choices))
        onConsentsSubmitted(choices)
        return choices
    }

    /// The user tapped "Log in" on the login step. Sends `login/tapped`.
    public func startLogin() {
        if step == .login { reporter.send(OnboardingEvent.loginStarted) }
    }

    /// Submits the login form. Sends `login/submitted` with `success`; a success finishes
    /// onboarding.
    /// - Returns: whether the form was submitted (only on the login step).
    @discardableResult
    public func submitLogin(succeeded: Bool) -> Bool {
        let submitted = state.withLock { state in
            guard state.step == .login else { return false }
            if succeeded { state.step = .finished }
            return true
        }
        if submitted { reporter.send(OnboardingEvent.loginSubmitted(succeeded: succeeded)) }
        return submitted
    }
}
