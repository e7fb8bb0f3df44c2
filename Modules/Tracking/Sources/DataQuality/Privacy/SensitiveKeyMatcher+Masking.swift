import Tracking

extension SensitiveKeyMatcher {
    /// What a sensitive value shows as where a value is described (a contract violation's flag,
    /// its diagnostic).
    static let maskedText = "(redacted)"

    /// `value` with the value of every sensitive key, at any depth (inside objects and objects
    /// in arrays), replaced by ``maskedText``: the form in which a value may be described.
    /// A scalar, or a container holding no sensitive key, is returned as it is.
    func masking(_ value: UserDataValue) -> UserDataValue {
        guard !keys.isEmpty else { return value }
        return masked(value) ?? value
    }

    /// The masked copy of `value`, or `nil` when nothing in it is sensitive.
    private func masked(_ value: UserDataValue) -> UserDataValue? {
        switch value {
        case .object(let fields):
            var result: [String: UserDataValue]?
            for (key, nested) in fields {
                if matches(key) {
                    if result == nil { result = fields }
                    result?[key] = .string(Self.maskedText)
                } else if let replacement = masked(nested) {
                    if result == nil { result = fields }
                    result?[key] = replacement
                }
            }
            return result.map(UserDataValue.object)
        case .array(let elements):
            var result: [UserDataValue]?
            for (index, element) in elements.enumerated() {
                if let replacement = masked(element) {
                    if result == nil { result = elements }
                    result?[index] = replacement
                }
            }
            return result.map(UserDataValue.array)
        default:
            return nil
        }
    }
}
