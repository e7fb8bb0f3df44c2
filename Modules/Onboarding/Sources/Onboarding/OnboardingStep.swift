/// Where the user is in onboarding.
public enum OnboardingStep: String, Sendable, Equatable {
    /// Not started.
    case notStarted
    /// Filling in the registration form.
    case registration
    /// Choosing legal and marketing consent.
    case consents
    /// Logging in with the new account.
    case login
    /// Done.
    case finished
}
