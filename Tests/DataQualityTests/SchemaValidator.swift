import Foundation
@testable import Tracking

/// Validates JSON against the shipped Iglu schemas by running python3 with the `jsonschema`
/// package (draft-04, every format checked). Local to this test target on purpose.
enum SchemaValidator {
    /// The folder of the shipped Snowplow schemas.
    static var snowplowSchemas: URL {
        // Tests/DataQualityTests/SchemaValidator.swift → repository root → Tests/Fixtures/snowplow
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Fixtures/snowplow", isDirectory: true)
    }

    /// The schema file for an Iglu URI such as `iglu:com.snowplowanalytics.snowplow/client_session/jsonschema/1-0-2`.
    static func schemaFile(for uri: String) -> URL {
        snowplowSchemas.appendingPathComponent(String(uri.dropFirst("iglu:".count)))
    }

    private static let script = """
    import json, sys, jsonschema
    schema = json.load(open(sys.argv[1]))
    instance = json.load(open(sys.argv[2]))
    validator = jsonschema.Draft4Validator(schema, format_checker=jsonschema.FormatChecker())
    errors = sorted(validator.iter_errors(instance), key=lambda e: list(e.path))
    for error in errors:
        print("/".join(str(p) for p in error.path) + ": " + error.message)
    sys.exit(1 if errors else 0)
    """

    /// The validation errors of `instance` against the schema file (empty when valid).
    static func errors(of instance: UserDataValue, against schema: URL) throws -> [String] {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let instanceFile = try folder.write(JSONText.encode(instance), to: "instance.json")
        let scriptFile = try folder.write(script, to: "validate.py")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", scriptFile.path, schema.path, instanceFile.path]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let text = String(decoding: data, as: UTF8.self)
        let lines = text.split(separator: "\n").map(String.init)
        if process.terminationStatus == 0 { return [] }
        if text.contains("No module named 'jsonschema'") {
            throw SchemaValidationUnavailable(description: "schema validation needs python's jsonschema package: run `python3 -m pip install jsonschema`")
        }
        if process.terminationStatus == 127 {
            throw SchemaValidationUnavailable(description: "schema validation needs python3: install it (`apt-get install python3`)")
        }
        return lines.isEmpty ? ["validator exited with \(process.terminationStatus)"] : lines
    }

    /// The errors of a self-describing entity `{"schema": "iglu:…", "data": {…}}` against its schema.
    static func errors(ofEntity entity: UserDataValue) throws -> [String] {
        guard case .object(let object) = entity, let uri = object["schema"]?.stringValue, let data = object["data"] else {
            return ["not a self-describing entity: \(entity)"]
        }
        return try errors(of: data, against: schemaFile(for: uri))
    }
}

/// Why schema validation could not run at all (a missing tool, named with how to install it).
struct SchemaValidationUnavailable: Error, CustomStringConvertible {
    /// One line naming what to install.
    var description: String
}
