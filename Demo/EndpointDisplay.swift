import Dispatcher
import Foundation

/// Where a destination sends, as a command prints it: the URL its requests go to, with only the
/// scheme, host, port and path (never a user, password, query or fragment, where a secret could
/// hide), or the file an NDJSON destination appends to. The write key is never part of it.
enum EndpointDisplay {
    /// `segment http://127.0.0.1:8080/v1/batch`, `snowplow https://c.example.com/com.snowplowanalytics.snowplow/tp2`,
    /// `ndjson .demo/outbox.ndjson`; the name alone for a destination of another kind.
    static func text(of destination: any Destination) -> String {
        switch destination {
        case let segment as SegmentDestination: "\(segment.name) \(text(of: segment.batchURL))"
        case let snowplow as SnowplowDestination: "\(snowplow.name) \(text(of: snowplow.collectorURL))"
        case let file as NDJSONFileDestination: "\(file.name) \(file.fileURL.path)"
        default: destination.name
        }
    }

    /// `scheme://host[:port]/path` of `url` (its query and fragment left out, its user and
    /// password removed as everywhere else, by `EndpointURL.redacted`); a file URL's path.
    static func text(of url: URL) -> String {
        if url.isFileURL { return url.path }
        guard var components = URLComponents(url: url, resolvingAgainstBaseURL: true), components.host != nil else {
            return "(an endpoint that is not a URL)"
        }
        (components.query, components.fragment) = (nil, nil)
        return components.url.map(EndpointURL.redacted) ?? "(an endpoint that is not a URL)"
    }
}
