import Foundation
import Tracking
import Testing
import DataQuality

@Suite("Configuration")
struct ConfigurationTests {
    private func failure(_ json: String) -> ConfigurationError? {
        do {
            _ = try TrackingConfiguration.decode(Data(json.utf8))
            return nil
        } catch {
            return error as? ConfigurationError
        }
    }

    @Test func theOneLineSetupHasDefaults() throws {
        let configuration = TrackingConfiguration(endpoint: try #require(URL(string: "https://collector.example.com")))
        try configuration.validate()
        #expect(configuration.format == .segment)
        #expect(configuration.session.foregroundTimeout == 1800 && configuration.session.backgroundTimeout == 1800)
        #expect(configuration.duplicateWindow == 1)
        #expect(configuration.batch.deliverySize == 100)
    }

    @Test func aMinimalFileDecodesWithDefaults() throws {
        let configuration = try TrackingConfiguration.decode(Data(#"{"endpoint": "https://c.example.com"}"#.utf8))
        #expect(configuration == TrackingConfiguration(endpoint: try #require(URL(string: "https://c.example.com"))))
    }

    @Test func aFullFileDecodesEverythingAndResolvesTheContractPath() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let file = try folder.write("""
        {
          "endpoint": "http://127.0.0.1:8080",
          "format": "snowplow",
          "writeKey": "secret",
          "appId": "shop",
          "batch": {"maxQueueSize": 500, "maxQueueBytes": 100000, "overflowQueueSize": 50, "deliverySize": 20,
                    "maxBatchBytes": 64000, "flushInterval": 5, "maxAttempts": 3, "maxAge": 3600},
          "session": {"foregroundTimeout": 600, "backgroundTimeout": 60},
          "duplicateWindow": 0.5,
          "sensitiveKeys": ["email"],
          "redaction": "remove",
          "consentCategories": ["Marketing"],
          "contractPath": "contract.json"
        }
        """, to: "tracking.json")
        let configuration = try TrackingConfiguration.load(from: file)
        #expect(configuration.format == .snowplow)
        #expect(configuration.appID == "shop")
        #expect(configuration.batch.deliverySize == 20 && configuration.batch.maxAttempts == 3)
        #expect(configuration.session.backgroundTimeout == 60)
        #expect(configuration.redaction == .remove)
        #expect(configuration.contractPath == folder.file("contract.json").path)
        #expect(!configuration.description.contains("secret"))
        let again = try TrackingConfiguration.decode(JSONEncoder().encode(configuration))
        #expect(again == configuration)
    }

    @Test func aRelativeFileEndpointIsResolvedAgainstTheFilesFolder() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let file = try folder.write(#"{"endpoint": "file:out/events.ndjson", "format": "ndjson"}"#, to: "tracking.json")
        let configuration = try TrackingConfiguration.load(from: file)
        #expect(configuration.endpoint.isFileURL)
        #expect(configuration.endpoint.standardizedFileURL.path == folder.file("out/events.ndjson").standardizedFileURL.path)
    }

    @Test(arguments: [
        (#"{"endpoint": "https://c.example.com", "batch": {"flushInterval": -5}}"#, "batch.flushInterval", "must not be negative"),
        (#"{"endpoint": "http://collector.example.com"}"#, "endpoint", "must use https"),
        (#"{"endpoint": "https://c.example.com", "format": "amplitude"}"#, "format", "unknown format 'amplitude'"),
        (#"{"endpoint": "https://c.example.com", "batch": {"deliverySize": 0}}"#, "batch.deliverySize", "greater than 0"),
        (#"{"endpoint": "https://c.example.com", "batch": {"flushIntervall": 5}}"#, "batch.flushIntervall", "unknown field"),
        (#"{"endpoint": "https://c.example.com", "session": {"foregroundTimeout": 0}}"#, "session.foregroundTimeout", "greater than 0"),
        (#"{"endpoint": "https://c.example.com", "duplicateWindow": -1}"#, "duplicateWindow", "must not be negative"),
        (#"{"endpoint": "https://c.example.com", "sensitiveKeys": ["email", ""]}"#, "sensitiveKeys[1]", "must not be empty"),
        (#"{"endpoint": "https://c.example.com", "redaction": "blur"}"#, "redaction", "unknown redaction"),
        (#"{"endpoint": "https://c.example.com", "appId": ""}"#, "appId", "must not be empty"),
        (#"{"endpoint": "https://c.example.com", "batch": {"maxAttempts": "three"}}"#, "batch.maxAttempts", "expected"),
        (#"{"endpoint": "file:out.ndjson"}"#, "endpoint", "needs format \"ndjson\""),
        (#"{"endpoint": "ftp://c.example.com"}"#, "endpoint", "unsupported scheme"),
        (#"{"format": "segment"}"#, "endpoint", "missing"),
        (#"{"endpoint": "https://c.example.com", "colour": "red"}"#, "colour", "unknown field"),
    ])
    func invalidConfigurationsNameTheField(json: String, field: String, reason: String) throws {
        let error = try #require(failure(json))
        #expect(error.field == field, "\(error)")
        #expect(error.reason.contains(reason), "\(error)")
        #expect(error.description.contains(field))
    }

    @Test func loopbackAndFileEndpointsAreAllowed() throws {
        for endpoint in ["http://localhost:9000", "http://127.0.0.1:8080/v1", "http://[::1]:8080"] {
            #expect(failure(#"{"endpoint": "\#(endpoint)"}"#) == nil, "\(endpoint)")
        }
        #expect(failure(#"{"endpoint": "file:///tmp/out.ndjson", "format": "ndjson"}"#) == nil)
    }

    @Test func aMissingFileNamesTheFile() throws {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("absent-\(UUID().uuidString).json")
        let error = try #require(throws: ConfigurationError.self) { try TrackingConfiguration.load(from: url) }
        #expect(error.file == url.path)
    }

    @Test func aFileEndpointNamingAnotherHostIsRefused() throws {
        let error = try #require(failure(#"{"endpoint": "file://somehost/x", "format": "ndjson"}"#))
        #expect(error.field == "endpoint" && error.reason.contains("somehost"), "\(error)")
        #expect(failure(#"{"endpoint": "file://localhost/tmp/x", "format": "ndjson"}"#) == nil)
    }

    @Test(arguments: [
        ("{\n  \"endpoint\": \"https://c.example.com\",\n  x\n}", 3, 3),
        ("{\"endpoint\": \"https://c.example.com\" \"appId\": \"a\"}", 1, 38),
        ("{\n\"endpoint\": \"https://c.example.com\",\n\"batch\": {\"maxQueueSize\": 12 13}\n}", 3, 30),
        ("{\"appId\": \"é\", ]", 1, 16),
        ("{\"endpoint\": \"https://c.example.com\"", 1, 37),
        ("{\"endpoint\": tru}", 1, 14),
        ("{\"endpoint\": \"https://c.example.com\"} x", 1, 39),
    ])
    func aSyntaxErrorNamesItsLineAndColumn(json: String, line: Int, column: Int) throws {
        let error = try #require(failure(json))
        #expect(error.reason.contains("line \(line), column \(column)"), "\(error)")
    }
}
