@testable import Analytics
import Dispatcher
import Foundation
import Testing
import Tracking

/// The destination's `compression` key: read, defaulted per format, validated, round-tripped.
@Suite("AnalyticsConfiguration destination.compression")
struct CompressionConfigurationTests {
    private func destination(_ json: String) throws -> AnalyticsConfiguration.DestinationSettings {
        try AnalyticsConfiguration(json: Data(#"{"store": "x.sqlite", "destination": \#(json)}"#.utf8)).destination
    }

    @Test("the key is read; absent, Segment sends gzip and Snowplow plain")
    func keyIsReadAndDefaultsPerFormat() throws {
        let segment = #"{"format": "segment", "endpoint": "http://127.0.0.1:9", "writeKey": "k""#
        let snowplow = #"{"format": "snowplow", "endpoint": "http://127.0.0.1:9""#
        #expect(try destination(segment + #", "compression": "plain"}"#).compression == .plain)
        #expect(try destination(snowplow + #", "compression": "gzip"}"#).compression == .gzip)
        #expect(try destination(segment + "}").compression == nil)

        let built = try #require(try destination(segment + "}").make(appID: "a") as? SegmentDestination)
        #expect(built.compression == .gzip)
        let plainSegment = try #require(try destination(segment + #", "compression": "plain"}"#).make(appID: "a") as? SegmentDestination)
        #expect(plainSegment.compression == .plain)
        let builtSnowplow = try #require(try destination(snowplow + "}").make(appID: "a") as? SnowplowDestination)
        #expect(builtSnowplow.compression == .plain)
        let gzipSnowplow = try #require(try destination(snowplow + #", "compression": "gzip"}"#).make(appID: "a") as? SnowplowDestination)
        #expect(gzipSnowplow.compression == .gzip)
    }

    @Test("an unknown value is an error naming the field and the known values", arguments: ["deflate", "GZIP", "", "none"])
    func unknownValueIsRejected(value: String) throws {
        let json = #"{"store": "x", "destination": {"format": "segment", "endpoint": "http://127.0.0.1:9", "writeKey": "k", "compression": "\#(value)"}}"#
        let error = try #require(throws: ConfigurationError.self) { try AnalyticsConfiguration(json: Data(json.utf8)) }
        #expect(error.field == "destination.compression", "\(error)")
        #expect(error.description.contains("gzip, plain"), "\(error)")
    }

    @Test("a number is a type error naming the field")
    func wrongTypeIsRejected() throws {
        let json = #"{"store": "x", "destination": {"format": "segment", "endpoint": "http://127.0.0.1:9", "writeKey": "k", "compression": 6}}"#
        let error = try #require(throws: ConfigurationError.self) { try AnalyticsConfiguration(json: Data(json.utf8)) }
        #expect(error.field == "destination.compression", "\(error)")
    }

    @Test("compression on a format that sends nothing over HTTP is an error", arguments: ["ndjson", "none"])
    func onlyForHTTPFormats(format: String) throws {
        let endpoint = format == "ndjson" ? #", "endpoint": "out.ndjson""# : ""
        let json = #"{"store": "x", "destination": {"format": "\#(format)"\#(endpoint), "compression": "gzip"}}"#
        let error = try #require(throws: ConfigurationError.self) { try AnalyticsConfiguration(json: Data(json.utf8)) }
        #expect(error.field == "destination.compression", "\(error)")
        #expect(error.reason.contains("segment and snowplow"), "\(error)")
    }

    @Test("it round-trips through JSON and changes the configuration hash")
    func roundTripAndHash() throws {
        let endpoint = try #require(URL(string: "http://127.0.0.1:9"))
        let base = AnalyticsConfiguration(storePath: "x.sqlite", destination: .segment(endpoint: endpoint, writeKey: "k"))
        var plain = base
        plain.destination.compression = .plain
        #expect(plain.hash != base.hash)
        for configuration in [base, plain] {
            let decoded = try AnalyticsConfiguration(json: try JSONEncoder().encode(configuration))
            #expect(decoded == configuration)
        }
    }
}
