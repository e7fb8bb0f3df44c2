import Analytics
import Dispatcher
import Foundation

/// Builds a destination from `--endpoint URL --format F [--write-key K]`.
///
/// For `ndjson` the endpoint is a file path or a `file://` URL with no host (or `localhost`).
/// For `segment` and `snowplow` it is an `https://` URL (`http://` for loopback). For `segment`
/// the write key may also come from the `SEGMENT_WRITE_KEY` environment variable, so it stays
/// out of shell history. The write key is never printed. Every mistake in these options,
/// including an endpoint whose scheme or host is not allowed, is a ``UsageError`` (exit 2).
enum DestinationOptions {
    static let formats = ["segment", "snowplow", "ndjson"]

    /// Checks `--format` and `--endpoint` without building anything (no write key needed).
    /// - Throws: ``UsageError`` for an unknown format or an endpoint that format cannot use.
    static func check(endpoint: String, format: String) throws {
        guard formats.contains(format) else {
            throw UsageError("--format takes one of \(formats.joined(separator: ", ")), got '\(format)'")
        }
        do {
            if format == "ndjson" {
                if endpoint.contains("://"), !endpoint.lowercased().hasPrefix("file://") {
                    throw UsageError("--format ndjson takes a file path or a file:// URL, got '\(endpoint)'")
                }
                _ = try EndpointURL.fileURL(endpoint)
            } else {
                _ = try EndpointURL.validate(endpoint)
            }
        } catch let error as EndpointError {
            throw UsageError("--endpoint: \(error)")
        }
    }

    /// The destination for the options.
    /// - Throws: ``UsageError`` for any mistake in them.
    static func make(endpoint: String, format: String, writeKey: String?, appID: String = "demo") throws -> any Destination {
        try check(endpoint: endpoint, format: format)
        if let writeKey, writeKey.isEmpty { throw UsageError("--write-key must not be empty") }
        do {
            switch format {
            case "ndjson":
                return try NDJSONFileDestination(endpoint: endpoint)
            default:
                let url = try EndpointURL.validate(endpoint)
                if format == "snowplow" { return try SnowplowDestination(endpoint: url, appID: appID) }
                let key = writeKey ?? ProcessInfo.processInfo.environment["SEGMENT_WRITE_KEY"]
                guard let key, !key.isEmpty else { throw UsageError("--format segment needs --write-key K (or SEGMENT_WRITE_KEY)") }
                return try SegmentDestination(endpoint: url, writeKey: key)
            }
        } catch let error as EndpointError {
            throw UsageError("--endpoint: \(error)")
        }
    }

    /// The runtime's destination settings for the options.
    /// - Throws: ``UsageError`` for any mistake in them.
    static func settings(endpoint: String, format: String, writeKey: String?) throws -> AnalyticsConfiguration.DestinationSettings {
        try check(endpoint: endpoint, format: format)
        if let writeKey, writeKey.isEmpty { throw UsageError("--write-key must not be empty") }
        switch format {
        case "ndjson":
            return .ndjson(file: try EndpointURL.fileURL(endpoint))
        case "snowplow":
            return .snowplow(endpoint: try EndpointURL.validate(endpoint))
        default:
            let key = writeKey ?? ProcessInfo.processInfo.environment["SEGMENT_WRITE_KEY"]
            guard let key, !key.isEmpty else { throw UsageError("--format segment needs --write-key K (or SEGMENT_WRITE_KEY)") }
            return .segment(endpoint: try EndpointURL.validate(endpoint), writeKey: key)
        }
    }
}
