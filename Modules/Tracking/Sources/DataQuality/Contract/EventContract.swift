import Tracking

/// Extra rules for one event name (and optionally one action) within a category.
///
/// Its fields are added to the category's, and replace a category field of the same name.
/// JSON form: `{"name": "checkout", "action": "pay", "fields": {…}}`.
public struct EventContract: Sendable, Equatable, Codable {
    /// The event name these rules apply to.
    public var name: String
    /// The action they apply to, or `nil` for every action of ``name``.
    public var action: String?
    /// The fields, by userData key.
    public var fields: [String: FieldRule]

    /// Creates event rules.
    public init(name: String, action: String? = nil, fields: [String: FieldRule]) {
        self.name = name
        self.action = action
        self.fields = fields
    }

    private enum CodingKeys: String, CodingKey, CaseIterable { case name, action, fields }

    /// Decodes the rules, rejecting unknown keys.
    public init(from decoder: any Decoder) throws {
        try ConfigurationDecoder.rejectUnknownKeys(CodingKeys.self, in: decoder)
        let container = try decoder.container(keyedBy: CodingKeys.self)
        name = try container.decode(String.self, forKey: .name)
        action = try container.decodeIfPresent(String.self, forKey: .action)
        fields = try container.decodeIfPresent([String: FieldRule].self, forKey: .fields) ?? [:]
    }

    /// Whether these rules apply to an event with `name` and `action`.
    public func applies(name: String, action: String) -> Bool {
        self.name == name && (self.action == nil || self.action == action)
    }
}
