import Analytics
import DataQuality
import Dispatcher
import Foundation
import Testing
import TestSupport
import Tracking

/// `AnalyticsConfiguration.hash` is built without `Codable` (whose first use would cost the
/// thread that starts `Analytics` more than the rest of the start), yet it is the hash of the
/// configuration as `encode(to:)` writes it: the hash every event carried before, unchanged.
@Suite("AnalyticsConfiguration: the hash without Codable")
struct ConfigurationHashTests {
    /// The hash as `QualityConfiguration.hash(of:)` gives it through `JSONEncoder`: the write
    /// key as `"set"`, the inspector left out.
    static func encoderHash(_ configuration: AnalyticsConfiguration) -> String {
        var hashed = configuration
        hashed.destination.writeKey = configuration.destination.writeKey == nil ? nil : "set"
        hashed.inspector = nil
        return QualityConfiguration.hash(of: hashed)
    }

    @Test("every configuration here hashes as its JSONEncoder text with sorted keys did")
    func sameAsTheEncoder() throws {
        let directory = try TemporaryDirectory(prefix: "config-hash")
        defer { directory.remove() }
        let full = try AnalyticsConfiguration(contentsOf: try write(AnalyticsConfigurationTests.fullJSON, to: "analytics.json", in: directory))
        var everything = full
        everything.destination.compression = .gzip
        everything.destination.endpoint = URL(string: "https://collector.example.com/com.snowplowanalytics.snowplow/tp2?x=1&y=%2F")
        everything.appID = "a \"quoted\" \\ app/with/slashes é 🚀"
        everything.retry.jitter = .none
        everything.batch.flushInterval = 0.125
        everything.session.backgroundTimeout = 1e-3
        everything.lifecycle.drainTimeout = 86_400
        everything.diagnostics.perMinute = 12_345.678
        everything.inspector = .init(port: 9_000)
        var ndjson = fastConfiguration(directory, destination: .ndjson(file: directory.file("out.ndjson")))
        ndjson.contractPath = directory.file("contract.json").path
        ndjson.strategies = []
        let configurations = [
            AnalyticsConfiguration(storePath: "defaults.sqlite"),
            full, everything, ndjson,
            AnalyticsConfiguration(storePath: "x", destination: .snowplow(endpoint: try #require(URL(string: "http://127.0.0.1:9")))),
            AnalyticsConfiguration(storePath: "y", destination: .segment(endpoint: try #require(URL(string: "https://api.example.com")), writeKey: testWriteKey)),
        ]
        for configuration in configurations {
            #expect(configuration.hash == Self.encoderHash(configuration), "\(configuration)")
        }
        #expect(Set(configurations.map(\.hash)).count == configurations.count)
    }
}
