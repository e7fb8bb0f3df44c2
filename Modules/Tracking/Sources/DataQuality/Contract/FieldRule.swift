import Tracking

/// What a contract says about one userData field: its type, whether it is mandatory, and
/// either the values it may take or the format it must have, plus an optional default.
///
/// JSON form: `{"type": "string", "mandatory": true, "allowed": ["Visa", "Mastercard"],
/// "format": "email", "pattern": "^[A-Z]{3}$", "default": "Visa", "description": "…"}`;
/// only `type` is required.
public struct FieldRule: Sendable, Equatable {
    /// The value's type.
    public var type: FieldType
    /// Whether every event must carry the field.
    public var mandatory: Bool
    /// The only values allowed, or `nil` for any value of the type.
    public var allowed: [UserDataValue]?
    /// The format a string value must have, or `nil` for any.
    public var format: FieldFormat?
    /// The value filled in when a mandatory field is missing, or `nil` to leave it missing.
    public var defaultValue: UserDataValue?
    /// What the field means, for people reading the contract.
    public var summary: String?

    /// Creates a rule.
    /// - Parameters:
    ///   - type: the value's type.
    ///   - mandatory: whether every event must carry the field.
    ///   - allowed: the only values allowed.
    ///   - format: the format a string value must have.
    ///   - defaultValue: filled in when the mandatory field is missing.
    ///   - summary: what the field means.
    public init(
        _ type: FieldType,
        mandatory: Bool = false,
        allowed: [UserDataValue]? = nil,
        format: FieldFormat? = nil,
        default defaultValue: UserDataValue? = nil,
        summary: String? = nil
    ) {
        self.type = type
        self.mandatory = mandatory
        self.allowed = allowed
        self.format = format
        self.defaultValue = defaultValue
        self.summary = summary
    }

    /// A mandatory field.
    public static func mandatory(
        _ type: FieldType, allowed: [UserDataValue]? = nil, format: FieldFormat? = nil, default defaultValue: UserDataValue? = nil
    ) -> FieldRule {
        FieldRule(type, mandatory: true, allowed: allowed, format: format, default: defaultValue)
    }

    /// An optional field.
    public static func optional(_ type: FieldType, allowed: [UserDataValue]? = nil, format: FieldFormat? = nil) -> FieldRule {
        FieldRule(type, mandatory: false, allowed: allowed, format: format)
    }

    /// What the rule expects, for messages: `integer`, `string in ["Visa", "Mastercard"]`, `string (email)`.
    public var expectation: String {
        var text = type.rawValue
        if let allowed { text += " in [" + allowed.map(\.description).joined(separator: ", ") + "]" }
        if let format { text += " (\(format.name))" }
        return text
    }

    /// Whether `value` is one of ``allowed`` (numbers compare by value: `2` equals `2.0`).
    func isAllowed(_ value: UserDataValue) -> Bool {
        guard let allowed else { return true }
        return allowed.contains { candidate in
            if candidate == value { return true }
            if let left = candidate.doubleValue, let right = value.doubleValue { return left == right }
            return false
        }
    }
}

extension FieldRule: Codable {
    private enum CodingKeys: String, CodingKey, CaseIterable {
        case type, mandatory, allowed, format, pattern, defaultValue = "default", summary = "description"
    }

    /// Decodes a rule, failing with the path of the first invalid part (unknown key, unknown
    /// type or format, a pattern that does not compile, an allowed value or default of the
    /// wrong type).
    public init(from decoder: any Decoder) throws {
        try ConfigurationDecoder.rejectUnknownKeys(CodingKeys.self, in: decoder)
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let typeName = try container.decode(String.self, forKey: .type)
        guard let type = FieldType(rawValue: typeName) else {
            throw DecodingError.dataCorruptedError(
                forKey: .type, in: container,
                debugDescription: "unknown type '\(typeName)' (known: \(FieldType.allCases.map(\.rawValue).joined(separator: ", ")))"
            )
        }
        self.type = type
        mandatory = try container.decodeIfPresent(Bool.self, forKey: .mandatory) ?? false
        summary = try container.decodeIfPresent(String.self, forKey: .summary)
        allowed = try container.decodeIfPresent([UserDataValue].self, forKey: .allowed)
        if let allowed, let wrong = allowed.first(where: { !type.accepts($0) }) {
            throw DecodingError.dataCorruptedError(
                forKey: .allowed, in: container, debugDescription: "allowed value \(wrong) is not of type \(type.rawValue)"
            )
        }
        let formatName = try container.decodeIfPresent(String.self, forKey: .format)
        let pattern = try container.decodeIfPresent(String.self, forKey: .pattern)
        switch (formatName, pattern) {
        case (nil, nil):
            format = nil
        case (let name?, nil):
            guard let named = FieldFormat(name: name) else {
                throw DecodingError.dataCorruptedError(
                    forKey: .format, in: container,
                    debugDescription: "unknown format '\(name)' (known: \(FieldFormat.namedFormats.joined(separator: ", ")); use \"pattern\" for a regular expression)"
                )
            }
            format = named
        case (nil, let pattern?):
            guard CompiledPattern(pattern) != nil else {
                throw DecodingError.dataCorruptedError(forKey: .pattern, in: container, debugDescription: "not a valid regular expression: \(pattern)")
            }
            format = .regex(pattern)
        case (_?, _?):
            throw DecodingError.dataCorruptedError(forKey: .pattern, in: container, debugDescription: "give either \"format\" or \"pattern\", not both")
        }
        if format != nil, type != .string, type != .date {
            throw DecodingError.dataCorruptedError(
                forKey: formatName != nil ? .format : .pattern, in: container,
                debugDescription: "a format applies to string fields, not \(type.rawValue)"
            )
        }
        defaultValue = try container.decodeIfPresent(UserDataValue.self, forKey: .defaultValue)
        if let defaultValue {
            let valid = type.accepts(defaultValue) && isAllowed(defaultValue)
                && (format.map { format in defaultValue.stringValue.map { format.matches($0, compiled: nil) } ?? true } ?? true)
            guard valid else {
                throw DecodingError.dataCorruptedError(
                    forKey: .defaultValue, in: container, debugDescription: "default \(defaultValue) does not satisfy \(expectation)"
                )
            }
        }
    }

    /// Encodes the rule in its JSON form.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(type.rawValue, forKey: .type)
        if mandatory { try container.encode(true, forKey: .mandatory) }
        try container.encodeIfPresent(allowed, forKey: .allowed)
        switch format {
        case .regex(let pattern)?: try container.encode(pattern, forKey: .pattern)
        case let named?: try container.encode(named.name, forKey: .format)
        case nil: break
        }
        try container.encodeIfPresent(defaultValue, forKey: .defaultValue)
        try container.encodeIfPresent(summary, forKey: .summary)
    }
}
