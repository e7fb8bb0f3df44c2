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

    /// The actions each name may be sent with.
    public static let validActions: [Name: Set<Action>] = [
        .registration: [.tapped, .entered, .submitted],
        .consents: [.clicked, .submitted],
        .login: [.tapped, .entered, .submitted],
    ]

    /// Whether `name` may be sent with `action`, per ``validActions``.
    public static func isValid(name: Name, action: Action) -> Bool {
        validActions[name]?.contains(action) ?? false
    }
}
