import Foundation
import Tracking

/// A data contract: per category, the userData fields events must and may carry, each with a
/// type and either allowed values or a format.
///
/// Build one in Swift or load it from JSON:
///
/// ```json
/// {
///   "categories": {
///     "Cart": {
///       "fields": {
///         "quantity": {"type": "integer", "mandatory": true, "default": 1},
///         "cardType": {"type": "string", "allowed": ["Visa", "Mastercard"]}
///       },
///       "events": [{"name": "checkout", "action": "pay", "fields": {"total": {"type": "number", "mandatory": true}}}]
///     }
///   }
/// }
/// ```
///
/// A ``ContractValidator`` checks events against it.
public struct DataContract: Sendable, Equatable, Codable {
    /// The rules by category.
    public var categories: [String: CategoryContract]
    /// Whether an event of a category the contract does not name is flagged `unknown_category`
    /// (otherwise it passes unchecked).
    public var flagsUnknownCategories: Bool

    /// Creates a contract.
    public init(categories: [String: CategoryContract] = [:], flagsUnknownCategories: Bool = false) {
        self.categories = categories
        self.flagsUnknownCategories = flagsUnknownCategories
    }

    private enum CodingKeys: String, CodingKey, CaseIterable { case categories, flagsUnknownCategories, version, description }

    /// Decodes a contract, rejecting unknown keys at every level.
    public init(from decoder: any Decoder) throws {
        try ConfigurationDecoder.rejectUnknownKeys(CodingKeys.self, in: decoder)
        let container = try decoder.container(keyedBy: CodingKeys.self)
        categories = try container.decodeIfPresent([String: CategoryContract].self, forKey: .categories) ?? [:]
        flagsUnknownCategories = try container.decodeIfPresent(Bool.self, forKey: .flagsUnknownCategories) ?? false
    }

    /// Encodes the contract in its JSON form.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(categories, forKey: .categories)
        if flagsUnknownCategories { try container.encode(true, forKey: .flagsUnknownCategories) }
    }

    /// Decodes a contract from JSON.
    /// - Throws: ``DataContractError`` naming the path of the first invalid field, or the line
    ///   and column of the first deviation from strict JSON (RFC 8259).
    public static func decode(_ data: Data) throws -> DataContract {
        do {
            return try ConfigurationDecoder.decode(DataContract.self, from: data)
        } catch let error as ConfigurationError {
            throw DataContractError(path: error.field, reason: error.reason)
        }
    }

    /// Loads a contract from a JSON file.
    /// - Throws: ``DataContractError`` naming the file and the path of the first invalid field,
    ///   or the file's read error.
    public static func load(from url: URL) throws -> DataContract {
        let data: Data
        do {
            data = try Data(contentsOf: url)
        } catch {
            throw DataContractError(path: "(file)", reason: "cannot read: \(FileReadFailure.reason(for: error, path: url.path))", file: url.path)
        }
        do {
            return try decode(data)
        } catch var error as DataContractError {
            error.file = url.path
            throw error
        }
    }

    /// The fields that apply to an event, or `nil` when the contract does not name its category.
    public func fields(for event: TrackedEvent) -> [String: FieldRule]? {
        categories[event.category]?.fields(name: event.name, action: event.action)
    }
}
