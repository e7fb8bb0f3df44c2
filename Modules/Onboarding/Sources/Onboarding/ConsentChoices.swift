/// What the user chose on the consent step: the result the app hands to consent management.
public struct ConsentChoices: Sendable, Equatable, Hashable {
    /// Whether the terms and privacy policy were accepted.
    public var legal: Bool
    /// Whether marketing was allowed.
    public var marketing: Bool

    /// Creates a set of choices.
    public init(legal: Bool = false, marketing: Bool = false) {
        self.legal = legal
        self.marketing = marketing
    }

    /// The choice for one consent.
    public subscript(kind: ConsentKind) -> Bool {
        get {
            switch kind {
            case .legal: legal
            case .marketing: marketing
            }
        }
        set {
            switch kind {
            case .legal: legal = newValue
            case .marketing: marketing = newValue
            }
        }
    }
}
