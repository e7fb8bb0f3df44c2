/// One consent the user is asked for.
public enum ConsentKind: String, Sendable, CaseIterable {
    /// Terms and privacy policy: required to finish onboarding.
    case legal
    /// Marketing messages and personalised offers: optional.
    case marketing
}
