import Dispatcher
import Foundation

/// Builds a destination from `--endpoint URL --format F [--write-key K]`.
///
/// For `ndjson` the endpoint is a file path or a `file://` URL. For `segment` the write key may
/// also come from the `SEGMENT_WRITE_KEY` environment variable, so it stays out of shell history.
/// The write key is never printed.
enum DestinationOptions {
    static let formats = ["segment", "snowplow", "ndjson"]

    static func make(endpoint: String, format: String, writeKey: String?, appID: String = "demo") throws -> any Destination {
        switch format {
        case "ndjson":
            if endpoint.hasPrefix("file://") {
                guard let url = URL(string: endpoint), url.isFileURL else { throw UsageError("--endpoint '\(endpoint)' is not a valid file URL") }
                return NDJSONFileDestination(fileURL: url)
            }
            guard !endpoint.contains("://") else { throw UsageError("--format ndjson takes a file path or a file:// URL, got '\(endpoint)'") }
            return NDJSONFileDestination(path: endpoint)
        case "segment", "snowplow":
            guard let url = URL(string: endpoint), url.scheme != nil, url.host != nil else {
                throw UsageError("--endpoint '\(endpoint)' is not a URL")
            }
            if format == "snowplow" { return try SnowplowDestination(endpoint: url, appID: appID) }
            let key = writeKey ?? ProcessInfo.processInfo.environment["SEGMENT_WRITE_KEY"]
            guard let key, !key.isEmpty else { throw UsageError("--format segment needs --write-key K (or SEGMENT_WRITE_KEY)") }
            return try SegmentDestination(endpoint: url, writeKey: key)
        default:
            throw UsageError("--format takes one of \(formats.joined(separator: ", ")), got '\(format)'")
        }
    }
}
