import Foundation
import Tracking

/// Validates JSON against the Snowplow Iglu schemas kept in `Tests/Fixtures/snowplow/`, by
/// running `python3` with the `jsonschema` package (draft-04; the Iglu `self` keyword is
/// ignored; every format the package knows, such as `uuid` and `date-time`, is checked).
/// The one schema validator of the test suite.
public enum SchemaValidator {
    /// Why validation could not run.
    public struct Failure: Error, CustomStringConvertible {
        /// What went wrong.
        public var description: String
    }

    /// The folder holding the schemas, found from this file's path.
    public static let schemaRoot: URL = URL(fileURLWithPath: #filePath).resolvingSymlinksInPath()
        .deletingLastPathComponent()   // TestSupport
        .deletingLastPathComponent()   // Tests
        .deletingLastPathComponent()   // repository root
        .appendingPathComponent("Tests/Fixtures/snowplow", isDirectory: true)

    /// Validates `json` against the schema named by `iglu` (for example
    /// `"iglu:com.snowplowanalytics.snowplow/payload_data/jsonschema/1-0-4"`).
    /// - Returns: the validation errors, empty when valid.
    /// - Parameter additionalSchemas: schemas of your own by Iglu URI (their JSON text), looked
    ///   up after the contracts folder.
    public static func validate(_ json: Data, against iglu: String, additionalSchemas: [String: String] = [:]) throws -> [String] {
        try run(json, mode: "plain", uri: iglu, additionalSchemas: additionalSchemas)
    }

    /// Validates `value`, encoded as JSON, against the schema named by `iglu`.
    /// - Returns: the validation errors, empty when valid.
    public static func validate(_ value: UserDataValue, against iglu: String) throws -> [String] {
        try validate(JSONEncoder().encode(value), against: iglu)
    }

    /// Validates a self-describing `value` (`{"schema","data"}`, such as a Snowplow entity),
    /// encoded as JSON, the way ``validateSelfDescribing(_:allowUnknownSchemas:additionalSchemas:)``
    /// validates its JSON.
    /// - Returns: the validation errors, each with its JSON path; empty when valid.
    public static func validateSelfDescribing(_ value: UserDataValue) throws -> [String] {
        try validateSelfDescribing(JSONEncoder().encode(value))
    }

    /// Validates a self-describing JSON (`{"schema","data"}`) all the way down: the wrapper, its
    /// data against its schema, and, for a payload_data body, every event's `co` and `ue_pr`
    /// (parsed from their strings), the contexts and unstruct_event wrappers, and every entity.
    /// - Parameter allowUnknownSchemas: whether a schema not in the contracts folder (your own
    ///   self-describing event) is skipped rather than reported.
    /// - Returns: the validation errors, each with its JSON path; empty when valid.
    /// - Parameter additionalSchemas: schemas of your own by Iglu URI (their JSON text), looked
    ///   up after the contracts folder.
    public static func validateSelfDescribing(
        _ json: Data, allowUnknownSchemas: Bool = false, additionalSchemas: [String: String] = [:]
    ) throws -> [String] {
        try run(json, mode: allowUnknownSchemas ? "deep-allow-unknown" : "deep", uri: "", additionalSchemas: additionalSchemas)
    }

    /// Checks that `definition` is a schema an Iglu registry accepts: a valid draft-04 JSON
    /// Schema whose `self` block (vendor, name, format, version) matches the Iglu meta-schema,
    /// and whose `self` names `iglu`.
    /// - Returns: the errors, empty when valid.
    public static func validateDefinition(_ definition: String, named iglu: String) throws -> [String] {
        try run(Data(definition.utf8), mode: "schema", uri: iglu)
    }

    /// The validating python process, started at the first validation and kept for the rest of
    /// the test process: python and jsonschema load once, not once a validation. Validations
    /// take turns through it, each a few milliseconds.
    private static let process = LockedValue<SchemaValidatorProcess?>(nil)

    private static func run(_ json: Data, mode: String, uri: String, additionalSchemas: [String: String] = [:]) throws -> [String] {
        let folder = try TemporaryDirectory(prefix: "schema")
        defer { folder.remove() }
        let extra = folder.file("additional")
        for (iglu, definition) in additionalSchemas where iglu.hasPrefix("iglu:") {
            let file = extra.appendingPathComponent(String(iglu.dropFirst("iglu:".count)))
            try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(definition.utf8).write(to: file)
        }
        let request = try JSONSerialization.data(withJSONObject: [
            "mode": mode, "uri": uri, "document": String(decoding: json, as: UTF8.self), "extra": extra.path,
        ])
        return try process.withLock { running in
            let validator = try running ?? SchemaValidatorProcess(schemaRoot: schemaRoot.path)
            running = validator
            do {
                return try validator.validate(request)
            } catch {
                // A process that failed once is not asked again: the next validation starts another.
                running = nil
                throw error
            }
        }
    }
}
