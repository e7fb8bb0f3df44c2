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

    private static let script = #"""
import json, os, sys
from jsonschema import Draft4Validator, FormatChecker
root, mode, uri, path, extra = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4], sys.argv[5]
errors = []
def load(uri):
    if not isinstance(uri, str) or not uri.startswith("iglu:"):
        errors.append("not an iglu URI: %r" % (uri,)); return None
    file = os.path.join(root, uri[5:])
    if not os.path.exists(file): file = os.path.join(extra, uri[5:])
    if not os.path.exists(file):
        if mode != "deep-allow-unknown": errors.append("unknown schema " + uri)
        return None
    with open(file) as handle: return json.load(handle)
def check(instance, uri, where):
    schema = load(uri)
    if schema is None: return False
    validator = Draft4Validator(schema, format_checker=FormatChecker())
    for error in sorted(validator.iter_errors(instance), key=lambda e: [str(p) for p in e.path]):
        errors.append("%s%s: %s (%s)" % (where, "".join("/" + str(p) for p in error.path), error.message, uri))
    return True
def deep(obj, where):
    check(obj, "iglu:com.snowplowanalytics.self-desc/instance/jsonschema/1-0-0", where)
    if not isinstance(obj, dict) or "schema" not in obj or "data" not in obj: return
    uri, data = obj["schema"], obj["data"]
    check(data, uri, where + "/data")
    if not isinstance(uri, str): return
    if "/payload_data/" in uri and isinstance(data, list):
        for index, event in enumerate(data):
            if not isinstance(event, dict): continue
            for key in ("co", "ue_pr"):
                if key in event:
                    try: inner = json.loads(event[key])
                    except Exception as error:
                        errors.append("%s/data/%d/%s: not JSON: %s" % (where, index, key, error)); continue
                    deep(inner, "%s/data/%d/%s" % (where, index, key))
    elif "/contexts/" in uri and isinstance(data, list):
        for index, entity in enumerate(data): deep(entity, "%s/data/%d" % (where, index))
    elif "/unstruct_event/" in uri and isinstance(data, dict):
        deep(data, where + "/data")
with open(path) as handle: document = json.load(handle)
if mode == "plain": check(document, uri, "")
elif mode == "schema":
    meta = load("iglu:com.snowplowanalytics.self-desc/schema/jsonschema/1-0-0")
    for error in Draft4Validator(meta["allOf"][0]).iter_errors(document):
        errors.append("%s: %s (self-desc/schema)" % ("".join("/" + str(p) for p in error.path), error.message))
    try: Draft4Validator.check_schema(document)
    except Exception as error: errors.append("not a draft-04 schema: %s" % (error,))
    described = document.get("self", {}) if isinstance(document, dict) else {}
    named = "iglu:%s/%s/%s/%s" % tuple(described.get(k) for k in ("vendor", "name", "format", "version"))
    if named != uri: errors.append("self names %s, not %s" % (named, uri))
else: deep(document, "")
print(json.dumps(errors))
"""#

    private static func run(_ json: Data, mode: String, uri: String, additionalSchemas: [String: String] = [:]) throws -> [String] {
        let folder = try TemporaryDirectory(prefix: "schema")
        defer { folder.remove() }
        let input = folder.file("document.json")
        try json.write(to: input)
        let extra = folder.file("additional")
        for (iglu, definition) in additionalSchemas where iglu.hasPrefix("iglu:") {
            let file = extra.appendingPathComponent(String(iglu.dropFirst("iglu:".count)))
            try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(definition.utf8).write(to: file)
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "-c", script, schemaRoot.path, mode, uri, input.path, extra.path]
        let output = Pipe()
        let errorOutput = Pipe()
        process.standardOutput = output
        process.standardError = errorOutput
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        let errorData = errorOutput.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let errorText = String(decoding: errorData, as: UTF8.self)
        if errorText.contains("No module named 'jsonschema'") || errorText.contains("No module named jsonschema") {
            throw Failure(description: "schema validation needs python's jsonschema package: run `python3 -m pip install jsonschema`")
        }
        if process.terminationStatus == 127 || errorText.contains("python3: No such file") {
            throw Failure(description: "schema validation needs python3: install it (`apt-get install python3`)")
        }
        guard process.terminationStatus == 0,
              let errors = try? JSONDecoder().decode([String].self, from: data) else {
            throw Failure(description: "python3 jsonschema failed (\(process.terminationStatus)): " + errorText)
        }
        return errors
    }
}
