import Foundation

/// Sends HTTP requests for a destination. Injectable, so tests can use a spy.
///
/// ``DefaultHTTPTransport`` makes the default: ``URLSessionTransport`` on Apple platforms,
/// `CurlTransport` on Linux. A transport only moves bytes; what a status code means is decided
/// by the destination and the ``RetryPolicy``.
public protocol HTTPTransport: Sendable {
    /// Sends a request and returns the response, whatever its status.
    /// - Throws: ``TransportError`` when no response arrived (network failure, timeout).
    func send(_ request: HTTPRequest) async throws(TransportError) -> HTTPResponse
}
