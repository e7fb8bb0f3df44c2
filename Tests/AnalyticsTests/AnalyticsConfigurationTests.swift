import Analytics
@testable import DataQuality
@testable import Dispatcher
import Foundation
import Testing
import TestSupport
import Tracking

/// `AnalyticsConfiguration`: defaults, JSON files, path resolution, secrecy of the write key,
/// the hash and the round trip. Invalid values are in `AnalyticsConfigurationValidationTests`.
@Suite("AnalyticsConfiguration")
struct AnalyticsConfigurationTests {
    /// Every field set to a value other than its default (the write key is made up, and the
    /// endpoint is never contacted: nothing here starts a runtime).
    static let fullJSON = """
    {
      "store": "data/events.sqlite",
      "appId": "shop-ios",
      "destination": {"format": "segment", "endpoint": "https://api.example.com/segment", "writeKey": "\(testWriteKey)",
                      "writeKeyIn": "body", "maxBatchBytes": 2048},
      "batch": {"maxQueueSize": 500, "maxQueueBytes": 100000, "overflowQueueSize": 50, "deliverySize": 20,
                "flushInterval": 5, "initialEventsCount": 2},
      "retry": {"baseDelay": 0.5, "multiplier": 3, "maxDelay": 60, "jitter": "equal", "maxAttempts": 4,
                "maxAge": 3600, "maxRetryAfter": 30},
      "strategies": ["boot", "initialEvents"],
      "contract": "contracts/contract.json",
      "consentCategories": ["Marketing", "Ads"],
      "redaction": {"keys": ["email", "iban"], "mode": "remove"},
      "session": {"foregroundTimeout": 600, "backgroundTimeout": 60},
      "duplicateWindow": 0.5,
      "diagnostics": {"trackAsEvents": false, "burst": 2, "perMinute": 1.5},
      "lifecycle": {"observeNotifications": false, "drainOnTerminationSignals": true, "drainTimeout": 3},
      "deliveredHistory": 25
    }
    """

    @Test("The one-line setup has every default, and they are valid")
    func oneLineSetupDefaults() throws {
        let configuration = AnalyticsConfiguration(storePath: "analytics/events.sqlite")
        try configuration.validate()
        #expect(configuration.storePath == "analytics/events.sqlite")
        #expect(configuration.appID == "app")
        #expect(configuration.destination == .none)
        #expect(configuration.destination.format == .none && configuration.destination.endpoint == nil)
        #expect(configuration.destination.writeKey == nil && configuration.destination.maxBatchBytes == nil)
        #expect(configuration.destination.authentication == .basic)
        #expect(configuration.batch == BatchConfiguration())
        #expect(configuration.batch.deliverySize == 100 && configuration.batch.flushInterval == 30)
        #expect(configuration.retry == RetryPolicy())
        #expect(configuration.retry.maxAttempts == 10)
        #expect(configuration.strategies == [.boot, .willEnterForeground, .didEnterBackground, .reachabilityPings])
        #expect(configuration.contractPath == nil)
        #expect(configuration.consentCategories.isEmpty)
        #expect(configuration.redaction.keys == ["password", "email", "phone"])
        #expect(configuration.redaction.mode == .hash)
        #expect(configuration.session.foregroundTimeout == 1800 && configuration.session.backgroundTimeout == 1800)
        #expect(configuration.duplicateWindow == 1)
        #expect(configuration.diagnostics.trackAsEvents && configuration.diagnostics.burst == 5 && configuration.diagnostics.perMinute == 6)
        #expect(configuration.lifecycle.observeNotifications)
        #expect(!configuration.lifecycle.drainOnTerminationSignals)
        #expect(configuration.lifecycle.drainTimeout == 5)
        #expect(configuration.deliveredHistory == 0)

        let withDestination = AnalyticsConfiguration(
            storePath: "x.sqlite", destination: .segment(endpoint: try #require(URL(string: "https://api.example.com")), writeKey: "k"))
        try withDestination.validate()
        #expect(withDestination.destination.format == .segment)
    }

    @Test("A minimal JSON document sets the store and keeps every other default")
    func minimalJSON() throws {
        let configuration = try AnalyticsConfiguration(json: Data(#"{"store": "x.sqlite"}"#.utf8))
        #expect(configuration == AnalyticsConfiguration(storePath: "x.sqlite"))
        #expect(configuration.storePath == "x.sqlite", "init(json:) leaves a relative path relative")
    }

    @Test("A full file sets every field, and its relative paths resolve against the file's folder")
    func fullFileSetsEveryField() throws {
        let directory = try TemporaryDirectory(prefix: "analytics-config-full")
        let file = try write(Self.fullJSON, to: "config/analytics.json", in: directory)
        let folder = file.deletingLastPathComponent()
        let configuration = try AnalyticsConfiguration(contentsOf: file)

        #expect(configuration.storePath == folder.appendingPathComponent("data/events.sqlite").path)
        #expect(configuration.appID == "shop-ios")
        #expect(configuration.destination.format == .segment)
        #expect(configuration.destination.endpoint == URL(string: "https://api.example.com/segment"))
        #expect(configuration.destination.writeKey == testWriteKey)
        #expect(configuration.destination.authentication == .body)
        #expect(configuration.destination.maxBatchBytes == 2048)
        #expect(configuration.batch == BatchConfiguration(
            maxQueueSize: 500, maxQueueBytes: 100_000, overflowQueueSize: 50, deliverySize: 20, flushInterval: 5, initialEventsCount: 2))
        #expect(configuration.retry == RetryPolicy(
            baseDelay: 0.5, multiplier: 3, maxDelay: 60, jitter: .equal, maxAttempts: 4, maxAge: 3600, maxRetryAfter: 30))
        #expect(configuration.strategies == [.boot, .initialEvents])
        #expect(configuration.contractPath == folder.appendingPathComponent("contracts/contract.json").path)
        #expect(configuration.consentCategories == ["Marketing", "Ads"])
        #expect(configuration.redaction.keys == ["email", "iban"])
        #expect(configuration.redaction.mode == .remove)
        #expect(configuration.session.foregroundTimeout == 600)
        #expect(configuration.session.backgroundTimeout == 60)
        #expect(configuration.duplicateWindow == 0.5)
        #expect(!configuration.diagnostics.trackAsEvents)
        #expect(configuration.diagnostics.burst == 2)
        #expect(configuration.diagnostics.perMinute == 1.5)
        #expect(!configuration.lifecycle.observeNotifications)
        #expect(configuration.lifecycle.drainOnTerminationSignals)
        #expect(configuration.lifecycle.drainTimeout == 3)
        #expect(configuration.deliveredHistory == 25)
    }

    @Test("Every strategy name is read")
    func everyStrategyName() throws {
        let json = #"{"store": "x", "strategies": ["boot", "willEnterForeground", "didEnterBackground", "reachabilityPings", "initialEvents"]}"#
        #expect(try AnalyticsConfiguration(json: Data(json.utf8)).strategies == .all)
        #expect(try AnalyticsConfiguration(json: Data(#"{"store": "x", "strategies": []}"#.utf8)).strategies == [])
    }

    @Test("A relative NDJSON file resolves against the configuration file's folder; absolute paths stay")
    func relativeNDJSONEndpointResolves() throws {
        let directory = try TemporaryDirectory(prefix: "analytics-config-ndjson")
        let relative = try write(
            #"{"store": "events.sqlite", "destination": {"format": "ndjson", "endpoint": "out/events.ndjson"}}"#,
            to: "conf/analytics.json", in: directory)
        let configuration = try AnalyticsConfiguration(contentsOf: relative)
        let folder = directory.file("conf")
        let endpoint = try #require(configuration.destination.endpoint)
        #expect(endpoint.isFileURL)
        #expect(endpoint.standardizedFileURL.path == folder.appendingPathComponent("out/events.ndjson").standardizedFileURL.path)
        #expect(configuration.storePath == folder.appendingPathComponent("events.sqlite").path)

        let absolutePath = directory.file("elsewhere/out.ndjson").path
        let absolute = try write(
            #"{"store": "\#(directory.file("abs.sqlite").path)", "destination": {"format": "ndjson", "endpoint": "\#(absolutePath)"}}"#,
            to: "conf/absolute.json", in: directory)
        let unchanged = try AnalyticsConfiguration(contentsOf: absolute)
        #expect(unchanged.storePath == directory.file("abs.sqlite").path)
        #expect(unchanged.destination.endpoint?.path == absolutePath)

        let fileURL = try write(
            #"{"store": "s", "destination": {"format": "ndjson", "endpoint": "file://\#(absolutePath)"}}"#, to: "conf/url.json", in: directory)
        #expect(try AnalyticsConfiguration(contentsOf: fileURL).destination.endpoint?.path == absolutePath)
    }

    @Test("An unknown key anywhere is an error naming its path", arguments: [
        (#"{"store": "x", "colour": "red"}"#, "colour"),
        (#"{"store": "x", "destination": {"format": "none", "colour": 1}}"#, "destination.colour"),
        (#"{"store": "x", "batch": {"flushIntervall": 5}}"#, "batch.flushIntervall"),
        (#"{"store": "x", "retry": {"maxAttempt": 5}}"#, "retry.maxAttempt"),
        (#"{"store": "x", "redaction": {"key": ["email"]}}"#, "redaction.key"),
        (#"{"store": "x", "session": {"timeout": 5}}"#, "session.timeout"),
        (#"{"store": "x", "diagnostics": {"rate": 5}}"#, "diagnostics.rate"),
        (#"{"store": "x", "lifecycle": {"observe": true}}"#, "lifecycle.observe"),
    ])
    func unknownKeysAreErrors(json: String, field: String) throws {
        let error = try #require(throws: ConfigurationError.self) { try AnalyticsConfiguration(json: Data(json.utf8)) }
        #expect(error.field == field, "\(error)")
        #expect(error.reason.contains("unknown field"), "\(error)")
        #expect(error.description.contains(field))
    }

    @Test("A JSON syntax error gives its line and column, and the file", arguments: [
        ("{\n  \"store\": \"x\",\n  x\n}", 3, 3),
        ("{\"store\": \"x\" \"appId\": \"a\"}", 1, 15),
        ("{\n\"store\": \"x\",\n\"batch\": {\"maxQueueSize\": 12 13}\n}", 3, 30),
        ("{\"store\": \"x\"", 1, 14),
        ("{\"store\": tru}", 1, 11),
    ])
    func syntaxErrorGivesLineAndColumn(json: String, line: Int, column: Int) throws {
        let error = try #require(throws: ConfigurationError.self) { try AnalyticsConfiguration(json: Data(json.utf8)) }
        #expect(error.reason.contains("line \(line), column \(column)"), "\(error)")

        let directory = try TemporaryDirectory(prefix: "analytics-config-syntax")
        let file = try write(json, to: "broken.json", in: directory)
        let fromFile = try #require(throws: ConfigurationError.self) { try AnalyticsConfiguration(contentsOf: file) }
        #expect(fromFile.file == file.path)
        #expect(fromFile.reason.contains("line \(line), column \(column)"), "\(fromFile)")
    }

    @Test("A missing file is an error naming the file")
    func missingFileNamesTheFile() throws {
        let directory = try TemporaryDirectory(prefix: "analytics-config-missing")
        let url = directory.file("absent.json")
        let error = try #require(throws: ConfigurationError.self) { try AnalyticsConfiguration(contentsOf: url) }
        #expect(error.file == url.path)
        #expect(error.description.contains(url.path))
    }

    @Test("An invalid value in a file names the field and the file")
    func invalidValueInAFileNamesFieldAndFile() throws {
        let directory = try TemporaryDirectory(prefix: "analytics-config-invalid-file")
        let file = try write(#"{"store": "x.sqlite", "batch": {"deliverySize": 0}}"#, to: "analytics.json", in: directory)
        let error = try #require(throws: ConfigurationError.self) { try AnalyticsConfiguration(contentsOf: file) }
        #expect(error.field == "batch.deliverySize")
        #expect(error.file == file.path)
        #expect(error.description.contains(file.path) && error.description.contains("batch.deliverySize"))
    }

    @Test("The write key never appears in description, debugDescription, dump, reflection or errors")
    func writeKeyIsNeverPrinted() throws {
        let directory = try TemporaryDirectory(prefix: "analytics-config-secret")
        let configuration = try AnalyticsConfiguration(contentsOf: try write(Self.fullJSON, to: "analytics.json", in: directory))
        #expect(configuration.destination.writeKey == testWriteKey)

        var dumped = ""
        dump(configuration, to: &dumped)
        var dumpedDestination = ""
        dump(configuration.destination, to: &dumpedDestination)
        let texts = [
            configuration.description, String(describing: configuration), String(reflecting: configuration), "\(configuration)",
            configuration.destination.description, configuration.destination.debugDescription,
            String(reflecting: configuration.destination), dumped, dumpedDestination,
            String(describing: Mirror(reflecting: configuration).children.map { "\($0.label ?? ""): \($0.value)" }),
        ]
        for text in texts {
            #expect(!text.contains(testWriteKey), "\(text)")
            #expect(!text.contains("never-print-me"))
        }
        #expect(configuration.destination.description.contains("write key set"))
        #expect(Mirror(reflecting: configuration.destination).descendant("writeKey") == nil)
        #expect(dumped.contains("shop-ios"), "dump still shows the other fields")

        // An error about the key does not print it either.
        var misplaced = configuration
        misplaced.destination.format = .snowplow
        let error = try #require(throws: ConfigurationError.self) { try misplaced.validate() }
        #expect(error.field == "destination.writeKey")
        #expect(!error.description.contains(testWriteKey))
    }

    @Test("The hash ignores the write key's value but changes with every other field")
    func hashIgnoresTheKeyValue() throws {
        let endpoint = try #require(URL(string: "https://api.example.com"))
        let base = AnalyticsConfiguration(storePath: "x.sqlite", destination: .segment(endpoint: endpoint, writeKey: "key-one"))
        var otherKey = base
        otherKey.destination.writeKey = "key-two"
        #expect(base.hash == otherKey.hash)
        #expect(base.hash.count == 12)
        #expect(!base.hash.contains("key"))

        var changes: [(String, AnalyticsConfiguration)] = []
        func changed(_ name: String, _ change: (inout AnalyticsConfiguration) -> Void) {
            var copy = base
            change(&copy)
            changes.append((name, copy))
        }
        changed("store") { $0.storePath = "y.sqlite" }
        changed("appId") { $0.appID = "other" }
        changed("endpoint") { $0.destination.endpoint = URL(string: "https://api2.example.com") }
        changed("writeKeyIn") { $0.destination.authentication = .body }
        changed("maxBatchBytes") { $0.destination.maxBatchBytes = 4096 }
        changed("batch") { $0.batch.deliverySize = 7 }
        changed("retry") { $0.retry.maxAttempts = 2 }
        changed("strategies") { $0.strategies = [] }
        changed("contract") { $0.contractPath = "contract.json" }
        changed("consent") { $0.consentCategories = ["Ads"] }
        changed("redaction") { $0.redaction.mode = .remove }
        changed("session") { $0.session.foregroundTimeout = 10 }
        changed("duplicateWindow") { $0.duplicateWindow = 0 }
        changed("diagnostics") { $0.diagnostics.burst = 1 }
        changed("lifecycle") { $0.lifecycle.drainTimeout = 1 }
        changed("deliveredHistory") { $0.deliveredHistory = 3 }
        for (name, configuration) in changes {
            #expect(configuration.hash != base.hash, "changing \(name) changes the hash")
        }
        #expect(Set(changes.map(\.1.hash)).count == changes.count)
    }

    @Test("Encoding then decoding gives the same configuration")
    func encodeDecodeRoundTrips() throws {
        let directory = try TemporaryDirectory(prefix: "analytics-config-roundtrip")
        let full = try AnalyticsConfiguration(contentsOf: try write(Self.fullJSON, to: "analytics.json", in: directory))
        var ndjson = fastConfiguration(directory, destination: .ndjson(file: directory.file("out.ndjson")))
        ndjson.contractPath = directory.file("contract.json").path
        let snowplow = AnalyticsConfiguration(storePath: "x", destination: .snowplow(endpoint: try #require(URL(string: "http://127.0.0.1:9"))))
        for configuration in [full, ndjson, snowplow, AnalyticsConfiguration(storePath: "defaults.sqlite")] {
            let data = try JSONEncoder().encode(configuration)
            let decoded = try AnalyticsConfiguration(json: data)
            #expect(decoded == configuration, "\(String(decoding: data, as: UTF8.self))")
            #expect(decoded.hash == configuration.hash)
        }
    }
}
