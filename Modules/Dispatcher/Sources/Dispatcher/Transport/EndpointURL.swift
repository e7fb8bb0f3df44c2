import Foundation

/// Checks and prepares the URL a destination sends to.
///
/// HTTPS is required unless the host is a loopback address (`127.0.0.0/8`, `::1`,
/// `localhost`), so nothing travels in clear text off the device.
public enum EndpointURL {
    /// Returns `url`, its scheme in lowercase (`HTTPS://` and `HTTP://` are accepted), if it
    /// may be used as an HTTP endpoint. An IPv6 loopback host is written in brackets
    /// (`http://[::1]:8080`).
    /// - Throws: an error saying what is wrong (plain HTTP to a host that is not loopback, another scheme, no host, not a URL).
    public static func validate(_ url: URL) throws -> URL {
        guard let scheme = url.scheme?.lowercased() else { throw EndpointError.unsupportedScheme(redacted(url)) }
        guard let host = url.host, !host.isEmpty else { throw EndpointError.missingHost(redacted(url)) }
        switch scheme {
        case "https": return try lowercasingScheme(url, to: scheme)
        case "http":
            guard isLoopback(host: host) else { throw EndpointError.insecure(redacted(url)) }
            return try lowercasingScheme(url, to: scheme)
        default: throw EndpointError.unsupportedScheme(redacted(url))
        }
    }

    /// `url` with its scheme written `scheme`: not every transport compares schemes
    /// case-insensitively.
    private static func lowercasingScheme(_ url: URL, to scheme: String) throws -> URL {
        guard url.scheme != scheme else { return url }
        let text = url.absoluteString
        guard let colon = text.firstIndex(of: ":"), let normalised = URL(string: scheme + text[colon...]) else {
            throw EndpointError.malformed(redacted(url))
        }
        return normalised
    }

    /// Parses and validates an endpoint string.
    public static func validate(_ text: String) throws -> URL {
        guard let url = URL(string: text), url.scheme != nil else { throw EndpointError.malformed(text) }
        return try validate(url)
    }

    /// Returns `url` if it may be used as a file endpoint: a `file://` URL whose host is empty
    /// or `localhost`. Any other host is refused rather than ignored, so `file://server/x`
    /// never writes to `/x` on this machine.
    /// - Throws: an error for a host other than `localhost`,
    ///   or when the scheme is not `file`.
    public static func validateFile(_ url: URL) throws -> URL {
        guard url.scheme?.lowercased() == "file" else { throw EndpointError.unsupportedScheme(redacted(url)) }
        if let host = url.host, !host.isEmpty, host.lowercased() != "localhost" {
            throw EndpointError.remoteFileHost(redacted(url), host: host)
        }
        return url
    }

    /// The file URL for a file endpoint given as a path or a `file://` URL string.
    /// - Throws: an error when a `file://` URL is malformed or names another host.
    public static func fileURL(_ text: String) throws -> URL {
        guard text.lowercased().hasPrefix("file:") else { return URL(fileURLWithPath: text) }
        guard let url = URL(string: text), !url.path.isEmpty else { throw EndpointError.malformed(text) }
        return try validateFile(url)
    }

    /// Whether a host name or address is the local machine: `localhost`, `127.0.0.0/8` or `::1`.
    public static func isLoopback(host: String) -> Bool {
        var name = host.lowercased()
        if name.hasPrefix("["), name.hasSuffix("]") { name = String(name.dropFirst().dropLast()) }
        if name == "localhost" || name.hasSuffix(".localhost") || name == "::1" { return true }
        if name == "0:0:0:0:0:0:0:1" { return true }
        let parts = name.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 4, parts[0] == "127" else { return false }
        return parts.allSatisfy { part in UInt8(part) != nil }
    }

    /// The URL as text without any user or password it carries.
    public static func redacted(_ url: URL) -> String {
        guard url.user != nil || url.password != nil,
              var components = URLComponents(url: url, resolvingAgainstBaseURL: false) else {
            return url.absoluteString
        }
        components.user = nil
        components.password = nil
        return components.string ?? "<url>"
    }

    /// `base` with `path` appended, avoiding a doubled slash.
    public static func appending(_ path: String, to base: URL) -> URL {
        var text = base.absoluteString
        while text.hasSuffix("/") { text.removeLast() }
        return URL(string: text + path) ?? base.appendingPathComponent(path)
    }
}
