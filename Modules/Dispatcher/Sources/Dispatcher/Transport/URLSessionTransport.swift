import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The ``HTTPTransport`` on Apple platforms, the default there (see ``DefaultHTTPTransport``):
/// its own `URLSession` with no cache, no cookies, and no redirects followed (a 3xx is returned
/// as it came, see ``DeliveryOutcome``).
///
/// Each request has an overall deadline the library enforces itself: when ``requestTimeout``
/// passes, the call fails with ``TransportError/timedOut(seconds:)`` and the task is cancelled,
/// whatever the session does. At most ``maxResponseBytes`` of a body are kept; past them the
/// task is cancelled and the response comes back with ``HTTPResponse/bodyTruncated``.
///
/// On Linux, FoundationNetworking's `URLSession` busy-loops while it waits for a slow
/// collector; there `CurlTransport` is the default.
public final class URLSessionTransport: HTTPTransport, Sendable {
    private let session: URLSession
    private let delegate: URLSessionResponseDelegate
    /// The timeout applied to each request, in seconds.
    public let requestTimeout: TimeInterval
    /// The most bytes of a response body kept.
    public let maxResponseBytes: Int

    /// Creates a transport.
    /// - Parameters:
    ///   - requestTimeout: seconds a request may take before it fails with
    ///     ``TransportError/timedOut(seconds:)``. Defaults to 30.
    ///   - maxResponseBytes: the most bytes of a response body kept. Defaults to 4096.
    public init(requestTimeout: TimeInterval = 30, maxResponseBytes: Int = 4096) {
        self.requestTimeout = requestTimeout.isFinite && requestTimeout > 0 ? requestTimeout : 30
        self.maxResponseBytes = max(0, maxResponseBytes)
        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForRequest = self.requestTimeout
        configuration.timeoutIntervalForResource = self.requestTimeout
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        configuration.urlCache = nil
        configuration.httpCookieStorage = nil
        configuration.httpShouldSetCookies = false
        configuration.httpCookieAcceptPolicy = .never
        configuration.httpMaximumConnectionsPerHost = 1
        delegate = URLSessionResponseDelegate()
        session = URLSession(configuration: configuration, delegate: delegate, delegateQueue: nil)
    }

    deinit { session.finishTasksAndInvalidate() }

    /// Sends the request through the session.
    public func send(_ request: HTTPRequest) async throws(TransportError) -> HTTPResponse {
        var urlRequest = URLRequest(url: request.url, cachePolicy: .reloadIgnoringLocalCacheData,
                                    timeoutInterval: requestTimeout)
        urlRequest.httpMethod = request.method
        urlRequest.httpShouldHandleCookies = false
        for (name, value) in request.headers { urlRequest.setValue(value, forHTTPHeaderField: name) }
        urlRequest.httpBody = request.body
        let completion = TransportCompletion()
        let task = session.dataTask(with: urlRequest)
        delegate.track(task, maxBodyBytes: maxResponseBytes, timeout: requestTimeout, completion: completion)
        task.resume()
        let result = await completion.wait(seconds: requestTimeout, expired: { task.cancel() }, cancelled: { task.cancel() })
        delegate.forget(task)
        return try result.get()
    }
}
