/// A field of the registration or login form. Events carry its name, never what was typed.
public enum RegistrationField: String, Sendable, CaseIterable, Comparable {
    /// The e-mail address.
    case email
    /// The password.
    case password
    /// The display name (optional).
    case displayName

    /// Declaration order, so a set of fields reads the same every time.
    public static func < (lhs: RegistrationField, rhs: RegistrationField) -> Bool {
        allCases.firstIndex(of: lhs) ?? 0 < allCases.firstIndex(of: rhs) ?? 0
    }
}
