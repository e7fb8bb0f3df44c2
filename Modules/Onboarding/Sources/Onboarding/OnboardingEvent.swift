import Tracking

/// Every event onboarding sends, as a value: a wrong name/action pair cannot be written.
public enum OnboardingEvent: FeatureEvent, Equatable {
    /// The feature these events belong to.
    public typealias Feature = OnboardingAnalytics

    /// The user tapped "Create account".
    case registrationStarted
    /// The user filled in a registration field (the field's name, never its content).
    case registrationFieldEntered(RegistrationField)
    /// The registration form was submitted with these fields filled.
    case registrationSubmitted(fields: [RegistrationField])
    /// The user switched one consent on or off.
    case consentToggled(ConsentKind, granted: Bool)
    /// The consent step was submitted with these choices.
    case consentsSubmitted(ConsentChoices)
    /// The user tapped "Log in".
    case loginStarted
    /// The user filled in a login field (the field's name, never its content).
    case loginFieldEntered(RegistrationField)
    /// The login form was submitted.
    case loginSubmitted(succeeded: Bool)

    /// The event's name.
    public var name: OnboardingAnalytics.Name {
        switch self {
        case .registrationStarted, .registrationFieldEntered, .registrationSubmitted: .registration
        case .consentToggled, .consentsSubmitted: .consents
        case .loginStarted, .loginFieldEntered, .loginSubmitted: .login
        }
    }

    /// The event's action.
    public var action: OnboardingAnalytics.Action {
        switch self {
        case .registrationStarted, .loginStarted: .tapped
        case .registrationFieldEntered, .loginFieldEntered: .entered
        case .consentToggled: .clicked
        case .registrationSubmitted, .consentsSubmitted, .loginSubmitted: .submitted
        }
    }

    /// The event's typed data.
    public var userData: UserData {
        switch self {
        case .registrationStarted, .loginStarted:
            [:]
        case .registrationFieldEntered(let field), .loginFieldEntered(let field):
            ["field": .string(field.rawValue)]
        case .registrationSubmitted(let fields):
            ["fields": .array(fields.map { .string($0.rawValue) }), "fieldCount": .int(fields.count)]
        case .consentToggled(let kind, let granted):
            ["consent": .string(kind.rawValue), "granted": .bool(granted)]
        case .consentsSubmitted(let choices):
            ["legal": .bool(choices.legal), "marketing": .bool(choices.marketing)]
        case .loginSubmitted(let succeeded):
            ["success": .bool(succeeded)]
        }
    }
}
