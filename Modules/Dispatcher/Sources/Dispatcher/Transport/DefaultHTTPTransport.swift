import Foundation

/// The transport destinations use unless they are given one: ``URLSessionTransport`` on Apple
/// platforms, `CurlTransport` (the system libcurl) on Linux, where FoundationNetworking's
/// `URLSession` busy-loops while it waits. Both bound each request by an overall deadline the
/// library enforces, keep at most a small part of any response body, and never follow a
/// redirect.
public enum DefaultHTTPTransport {
    /// A new transport for this platform.
    /// - Parameters:
    ///   - requestTimeout: seconds a request may take before it fails with
    ///     ``TransportError/timedOut(seconds:)``. Defaults to 30.
    ///   - maxResponseBytes: the most bytes of a response body kept. Defaults to 4096.
    public static func make(requestTimeout: TimeInterval = 30, maxResponseBytes: Int = 4096) -> any HTTPTransport {
        #if os(Linux)
        CurlTransport(requestTimeout: requestTimeout, maxResponseBytes: maxResponseBytes)
        #else
        URLSessionTransport(requestTimeout: requestTimeout, maxResponseBytes: maxResponseBytes)
        #endif
    }
}
