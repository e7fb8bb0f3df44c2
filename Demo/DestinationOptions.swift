import Analytics
import Dispatcher
import Foundation
import Tracking

/// The runtime's destination settings from `--endpoint URL --format F [--write-key K]`.
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
        } catch let error as UsageError {
            throw error
        } catch {
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

    /// Validates a configuration whose destination came from these options: a destination the
    /// runtime would refuse is a usage mistake in them.
    /// - Throws: ``UsageError`` for the destination's fields, ``ConfigurationError`` otherwise.
    static func validate(_ configuration: AnalyticsConfiguration) throws {
        do {
            try configuration.validate()
        } catch let error as ConfigurationError where error.field.hasPrefix("destination") {
            throw UsageError("--\(error.field == "destination.writeKey" ? "write-key" : "endpoint"): \(error.reason)")
        }
    }
}
