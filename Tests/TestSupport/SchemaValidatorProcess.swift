import Foundation

/// The python process behind ``SchemaValidator``: `python3` with the `jsonschema` package,
/// reading one request a line on its standard input (a JSON object: `mode`, `uri`, `document`
/// as JSON text, `extra`, the folder of additional schemas) and answering each with one line:
/// `{"errors": [...]}`, or `{"failure": traceback}` when the request could not be checked.
/// Its standard error goes to a file, unlinked at once, read when it fails.
struct SchemaValidatorProcess: Sendable {
    private let process: Process
    private let input: FileHandle
    private let output: FileHandle
    /// Where its standard error is read from.
    private let errorLog: FileHandle

    /// Starts the process, with the schemas of `schemaRoot`.
    /// - Throws: ``SchemaValidator/Failure`` when it cannot start.
    init(schemaRoot: String) throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("schema-validator-\(UUID().uuidString).log").path
        guard FileManager.default.createFile(atPath: path, contents: nil, attributes: [.posixPermissions: 0o600]),
              let errors = FileHandle(forWritingAtPath: path), let log = FileHandle(forReadingAtPath: path) else {
            throw SchemaValidator.Failure(description: "cannot create \(path) for python3's errors")
        }
        try? FileManager.default.removeItem(atPath: path)
        errorLog = log
        let requests = Pipe()
        let answers = Pipe()
        process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "-c", Self.script, schemaRoot]
        process.standardInput = requests
        process.standardOutput = answers
        process.standardError = errors
        do {
            try process.run()
        } catch {
            throw SchemaValidator.Failure(description: "schema validation needs python3: install it (`apt-get install python3`): \(error)")
        }
        input = requests.fileHandleForWriting
        output = answers.fileHandleForReading
    }

    /// Sends one request (a JSON object on one line) and returns the errors of its answer.
    /// - Throws: ``SchemaValidator/Failure`` when python is missing something, fails the request
    ///   or stops.
    func validate(_ request: Data) throws -> [String] {
        do {
            try input.write(contentsOf: request + Data("\n".utf8))
        } catch {
            throw stopped()
        }
        var line = Data()
        while line.last != UInt8(ascii: "\n") {
            let chunk = output.availableData
            guard !chunk.isEmpty else { throw stopped() }
            line.append(chunk)
        }
        let answer = try? JSONSerialization.jsonObject(with: line) as? [String: Any]
        if let errors = answer?["errors"] as? [String] { return errors }
        throw SchemaValidator.Failure(description: "python3 jsonschema failed: \(answer?["failure"] as? String ?? String(decoding: line, as: UTF8.self))")
    }

    /// Why the process stopped answering, from what it wrote to its standard error.
    private func stopped() -> SchemaValidator.Failure {
        process.waitUntilExit()
        let errorText = String(decoding: (try? errorLog.readToEnd()) ?? Data(), as: UTF8.self)
        if errorText.contains("No module named 'jsonschema'") || errorText.contains("No module named jsonschema") {
            return SchemaValidator.Failure(description: "schema validation needs python's jsonschema package: run `python3 -m pip install jsonschema`")
        }
        if process.terminationStatus == 127 || errorText.contains("python3: No such file") {
            return SchemaValidator.Failure(description: "schema validation needs python3: install it (`apt-get install python3`)")
        }
        return SchemaValidator.Failure(description: "python3 jsonschema stopped (\(process.terminationStatus)): " + errorText)
    }

    private static let script = #"""
import json, os, sys, traceback
from jsonschema import Draft4Validator, FormatChecker
root = sys.argv[1]
def validate(mode, uri, document, extra):
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
    return errors
for line in sys.stdin:
    try:
        request = json.loads(line)
        answer = {"errors": validate(request["mode"], request["uri"], json.loads(request["document"]), request["extra"])}
    except Exception:
        answer = {"failure": traceback.format_exc()}
    sys.stdout.write(json.dumps(answer) + "\n")
    sys.stdout.flush()
"""#
}
