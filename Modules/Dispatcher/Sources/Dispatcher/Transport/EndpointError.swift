/// Why an endpoint URL cannot be used. The URL in each case has any credentials removed.
enum EndpointError: Error, Sendable, Equatable, CustomStringConvertible {
    /// Plain HTTP to a host that is not loopback.
    case insecure(String)
    /// A scheme other than `https` (or `http` to loopback).
    case unsupportedScheme(String)
    /// The URL has no host.
    case missingHost(String)
    /// The text is not a URL.
    case malformed(String)
    /// A `file://` URL naming a host other than `localhost`: files are written on this machine
    /// only, so the host would be silently ignored. The associated values are the URL and the host.
    case remoteFileHost(String, host: String)

    /// A one-line explanation.
    var description: String {
        switch self {
        case .insecure(let url):
            "endpoint \(url) uses plain HTTP; HTTPS is required unless the host is loopback (127.0.0.0/8, ::1, localhost)"
        case .unsupportedScheme(let url): "endpoint \(url) must be an https:// URL (http:// only for loopback)"
        case .missingHost(let url): "endpoint \(url) has no host"
        case .malformed(let text): "endpoint \(text) is not a valid URL"
        case .remoteFileHost(let url, let host):
            "endpoint \(url) names the host '\(host)'; a file:// URL must name no host or localhost (file:///path/to/file)"
        }
    }
}
