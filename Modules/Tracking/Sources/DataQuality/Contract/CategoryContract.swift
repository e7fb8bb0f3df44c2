import Tracking

/// What a contract says about one category: its fields, and extra rules per event name.
///
/// JSON form: `{"fields": {"quantity": {"type": "integer", "mandatory": true}},
/// "events": [{"name": "checkout", "action": "pay", "fields": {…}}], "allowsUnknownFields": false}`.
public struct CategoryContract: Sendable, Equatable, Codable {
    /// The fields every event of the category may carry, by userData key.
    public var fields: [String: FieldRule]
    /// Extra rules for particular names (and actions).
    public var events: [EventContract]
    /// Whether a field the contract does not name passes without an `unknown_field` flag.
    public var allowsUnknownFields: Bool

    /// Creates category rules.
    public init(fields: [String: FieldRule] = [:], events: [EventContract] = [], allowsUnknownFields: Bool = false) {
        self.fields = fields
        self.events = events
        self.allowsUnknownFields = allowsUnknownFields
    }

    private enum CodingKeys: String, CodingKey, CaseIterable { case fields, events, allowsUnknownFields }

    /// Decodes the rules, rejecting unknown keys.
    public init(from decoder: any Decoder) throws {
        try ConfigurationDecoder.rejectUnknownKeys(CodingKeys.self, in: decoder)
        let container = try decoder.container(keyedBy: CodingKeys.self)
        fields = try container.decodeIfPresent([String: FieldRule].self, forKey: .fields) ?? [:]
        events = try container.decodeIfPresent([EventContract].self, forKey: .events) ?? []
        allowsUnknownFields = try container.decodeIfPresent(Bool.self, forKey: .allowsUnknownFields) ?? false
    }

    /// The fields that apply to an event with `name` and `action`: the category's, then each
    /// matching ``EventContract``'s in order (a later one replaces an earlier field).
    public func fields(name: String, action: String) -> [String: FieldRule] {
        fields { $0.applies(name: name, action: action) }
    }

    /// The category's fields, then those of each ``EventContract`` that `applies` in order (a
    /// later one replaces an earlier field).
    func fields(where applies: (EventContract) -> Bool) -> [String: FieldRule] {
        var merged = fields
        for rules in events where applies(rules) {
            merged.merge(rules.fields) { _, specific in specific }
        }
        return merged
    }
}
