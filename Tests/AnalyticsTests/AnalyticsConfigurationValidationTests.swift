import Analytics
@testable import DataQuality
@testable import Dispatcher
import Foundation
import Testing
import TestSupport
import Tracking

/// Every invalid value is refused with an error naming the field by its JSON path.
@Suite("AnalyticsConfiguration validation", .runsAlone)
struct AnalyticsConfigurationValidationTests {
    /// One invalid configuration: the JSON members after `"store"`, the field it must name and a
    /// word the reason must contain.
    struct Case: Sendable, CustomTestStringConvertible {
        var members: String
        var field: String
        var reason: String
        var store = "x.sqlite"

        var json: String { members.isEmpty ? #"{"store": "\#(store)"}"# : #"{"store": "\#(store)", \#(members)}"# }
        var testDescription: String { field + ": " + json }
    }

    static let cases: [Case] = [
        Case(members: "", field: "store", reason: "must not be empty", store: ""),
        Case(members: "", field: "store", reason: "names a folder", store: "data/"),
        Case(members: #""appId": """#, field: "appId", reason: "must not be empty"),
        Case(members: #""destination": {"format": "amplitude"}"#, field: "destination.format", reason: "unknown format 'amplitude'"),
        Case(members: #""destination": {"endpoint": "https://api.example.com"}"#, field: "destination.format", reason: "missing"),
        Case(members: #""destination": {"format": "segment", "endpoint": "https://api.example.com"}"#,
             field: "destination.writeKey", reason: "required"),
        Case(members: #""destination": {"format": "segment", "endpoint": "https://api.example.com", "writeKey": ""}"#,
             field: "destination.writeKey", reason: "must not be empty"),
        Case(members: #""destination": {"format": "snowplow", "endpoint": "https://c.example.com", "writeKey": "k"}"#,
             field: "destination.writeKey", reason: "only used by format segment"),
        Case(members: #""destination": {"format": "ndjson", "endpoint": "out.ndjson", "writeKey": "k"}"#,
             field: "destination.writeKey", reason: "only used by format segment"),
        Case(members: #""destination": {"format": "segment", "endpoint": "https://api.example.com", "writeKey": "k", "writeKeyIn": "query"}"#,
             field: "destination.writeKeyIn", reason: "\"header\" or \"body\""),
        Case(members: #""destination": {"format": "segment", "endpoint": "http://collector.example.com", "writeKey": "k"}"#,
             field: "destination.endpoint", reason: "collector.example.com"),
        Case(members: #""destination": {"format": "snowplow", "endpoint": "http://collector.example.com"}"#,
             field: "destination.endpoint", reason: "collector.example.com"),
        Case(members: #""destination": {"format": "segment", "endpoint": "out.ndjson", "writeKey": "k"}"#,
             field: "destination.endpoint", reason: "has no host"),
        Case(members: #""destination": {"format": "snowplow", "endpoint": "ftp://c.example.com"}"#,
             field: "destination.endpoint", reason: "must be an https:// URL"),
        Case(members: #""destination": {"format": "snowplow"}"#, field: "destination.endpoint", reason: "required"),
        Case(members: #""destination": {"format": "ndjson"}"#, field: "destination.endpoint", reason: "required"),
        Case(members: #""destination": {"format": "none", "endpoint": "https://api.example.com"}"#,
             field: "destination.endpoint", reason: "not used by format none"),
        Case(members: #""destination": {"format": "ndjson", "endpoint": ""}"#, field: "destination.endpoint", reason: "not a URL"),
        Case(members: #""destination": {"format": "ndjson", "endpoint": "file://somehost/x.ndjson"}"#,
             field: "destination.endpoint", reason: "somehost"),
        Case(members: #""destination": {"format": "snowplow", "endpoint": "https://c.example.com", "maxBatchBytes": 1023}"#,
             field: "destination.maxBatchBytes", reason: "at least 1024"),
        Case(members: #""batch": {"maxQueueSize": 0}"#, field: "batch.maxQueueSize", reason: "at least 1"),
        Case(members: #""batch": {"maxQueueBytes": 1000}"#, field: "batch.maxQueueBytes", reason: "at least 1024"),
        Case(members: #""batch": {"overflowQueueSize": -1}"#, field: "batch.overflowQueueSize", reason: "negative"),
        Case(members: #""batch": {"deliverySize": 0}"#, field: "batch.deliverySize", reason: "between 1 and 10000"),
        Case(members: #""batch": {"deliverySize": 10001}"#, field: "batch.deliverySize", reason: "between 1 and 10000"),
        Case(members: #""batch": {"deliverySize": "ten"}"#, field: "batch.deliverySize", reason: "expected"),
        Case(members: #""batch": {"flushInterval": -1}"#, field: "batch.flushInterval", reason: "non-negative"),
        Case(members: #""batch": {"initialEventsCount": -1}"#, field: "batch.initialEventsCount", reason: "negative"),
        Case(members: #""retry": {"baseDelay": -1}"#, field: "retry.baseDelay", reason: "non-negative"),
        Case(members: #""retry": {"multiplier": 0.5}"#, field: "retry.multiplier", reason: "at least 1"),
        Case(members: #""retry": {"maxDelay": -1}"#, field: "retry.maxDelay", reason: "non-negative"),
        Case(members: #""retry": {"maxAttempts": 0}"#, field: "retry.maxAttempts", reason: "at least 1"),
        Case(members: #""retry": {"maxAge": 0}"#, field: "retry.maxAge", reason: "positive"),
        Case(members: #""retry": {"maxRetryAfter": -1}"#, field: "retry.maxRetryAfter", reason: "non-negative"),
        Case(members: #""retry": {"jitter": "wild"}"#, field: "retry.jitter", reason: "wild"),
        Case(members: #""strategies": ["boot", "sometimes"]"#, field: "strategies", reason: "unknown strategy 'sometimes'"),
        Case(members: #""strategies": "boot""#, field: "strategies", reason: "expected"),
        Case(members: #""contract": """#, field: "contract", reason: "must not be empty"),
        Case(members: #""consentCategories": ["Ads", ""]"#, field: "consentCategories[1]", reason: "must not be empty"),
        Case(members: #""consentCategories": [""]"#, field: "consentCategories[0]", reason: "must not be empty"),
        Case(members: #""redaction": {"keys": ["email", "", "phone"]}"#, field: "redaction.keys[1]", reason: "must not be empty"),
        Case(members: #""redaction": {"mode": "blur"}"#, field: "redaction.mode", reason: "blur"),
        Case(members: #""session": {"foregroundTimeout": 0}"#, field: "session.foregroundTimeout", reason: "positive"),
        Case(members: #""session": {"foregroundTimeout": -5}"#, field: "session.foregroundTimeout", reason: "positive"),
        Case(members: #""session": {"backgroundTimeout": 0}"#, field: "session.backgroundTimeout", reason: "positive"),
        Case(members: #""duplicateWindow": -1"#, field: "duplicateWindow", reason: "non-negative"),
        Case(members: #""diagnostics": {"burst": 0}"#, field: "diagnostics.burst", reason: "at least 1"),
        Case(members: #""diagnostics": {"perMinute": -1}"#, field: "diagnostics.perMinute", reason: "non-negative"),
        Case(members: #""lifecycle": {"drainTimeout": 0}"#, field: "lifecycle.drainTimeout", reason: "between 0 and 600"),
        Case(members: #""lifecycle": {"drainTimeout": -1}"#, field: "lifecycle.drainTimeout", reason: "between 0 and 600"),
        Case(members: #""lifecycle": {"drainTimeout": 601}"#, field: "lifecycle.drainTimeout", reason: "between 0 and 600"),
        Case(members: #""lifecycle": {"observeNotifications": "yes"}"#, field: "lifecycle.observeNotifications", reason: "expected"),
        Case(members: #""deliveredHistory": -1"#, field: "deliveredHistory", reason: "negative"),
        Case(members: #""inspector": {"port": 70000}"#, field: "inspector.port", reason: "between 1 and 65535"),
        Case(members: #""inspector": {"port": -1}"#, field: "inspector.port", reason: "got -1"),
    ]

    @Test("An invalid value is refused, naming the field", arguments: cases)
    func invalidValueNamesTheField(_ invalid: Case) throws {
        let error = try #require(throws: ConfigurationError.self) { try AnalyticsConfiguration(json: Data(invalid.json.utf8)) }
        #expect(error.field == invalid.field, "\(error)")
        #expect(error.reason.contains(invalid.reason), "\(error)")
        #expect(error.description.contains(invalid.field))
    }

    @Test("A missing store is an error naming it")
    func missingStore() throws {
        let error = try #require(throws: ConfigurationError.self) { try AnalyticsConfiguration(json: Data("{}".utf8)) }
        #expect(error.field == "store" && error.reason.contains("missing"), "\(error)")
    }

    /// The same checks guard a configuration built in code: the runtime refuses it before
    /// touching the file system.
    @Test("A configuration built in code is validated when the runtime starts")
    func runtimeValidatesFirst() throws {
        let directory = try TemporaryDirectory(prefix: "analytics-validate-runtime")
        var configuration = fastConfiguration(directory)
        configuration.batch.deliverySize = 0
        let error = try #require(throws: ConfigurationError.self) { try Analytics(configuration: configuration) }
        #expect(error.field == "batch.deliverySize")
        #expect(!FileManager.default.fileExists(atPath: configuration.storePath), "nothing is created for an invalid configuration")

        var insecure = fastConfiguration(directory)
        insecure.destination = .snowplow(endpoint: try #require(URL(string: "http://collector.example.com")))
        let endpointError = try #require(throws: ConfigurationError.self) { try Analytics(configuration: insecure) }
        #expect(endpointError.field == "destination.endpoint")
    }

    @Test("Loopback http endpoints are accepted")
    func loopbackEndpointsAreAccepted() throws {
        for endpoint in ["http://127.0.0.1:8080", "http://localhost:9000/v1", "http://[::1]:8080"] {
            let json = #"{"store": "x", "destination": {"format": "snowplow", "endpoint": "\#(endpoint)"}}"#
            #expect(throws: Never.self, "\(endpoint)") { try AnalyticsConfiguration(json: Data(json.utf8)) }
        }
    }
}
