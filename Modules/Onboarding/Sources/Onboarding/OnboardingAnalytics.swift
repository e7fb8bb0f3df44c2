import Tracking

/// Onboarding's events, in the category `"Onboarding"`.
///
/// Valid pairs (anything else is flagged `invalid_pair` and reported):
///
/// | name           | actions                         |
/// |----------------|---------------------------------|
/// | `registration` | `tapped`, `entered`, `submitted` |
/// | `consents`     | `clicked`, `submitted`          |
/// | `login`        | `tapped`, `entered`, `submitted` |
public enum OnboardingAnalytics: EventType {
    /// Which part of onboarding.
    public enum Name: String, Sendable, CaseIterable {
        /// Creating an account.
        case registration
        /// The legal and marketing consent screen.
        case consents
        /// Signing in to an existing account.
        case login
    }

    /// What the user did there.
    public enum Action: String, Sendable, CaseIterable {
        /// Tapped a button that starts a step.
        case tapped
        /// Filled in a field.
        case entered
        /// Clicked a toggle or link.
        case clicked
        /// Submitted the step.
        case submitted
    }

    /// `"Onboarding"`.
    public static let category = "Onboarding"

    /// Whether `name` may be sent with `action`. A switch: it runs on every send, so it must be cheap.
    public static func isValid(name: Name, action: Action) -> Bool {
        switch (name, action) {
        case (.registration, .tapped), (.registration, .entered), (.registration, .submitted),
             (.consents, .clicked), (.consents, .submitted),
             (.login, .tapped), (.login, .entered), (.login, .submitted): true
        default: false
        }
    }
}
