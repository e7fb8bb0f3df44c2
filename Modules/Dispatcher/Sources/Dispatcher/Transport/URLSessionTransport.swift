import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The default ``HTTPTransport``: its own `URLSession` with a request timeout, no cache, no
/// cookies, and no redirects followed: a 3xx is returned as it came (see ``DeliveryOutcome``).
public final class URLSessionTransport: HTTPTransport, @unchecked Sendable {
    // Safe: both stored properties are immutable after init, and URLSession is thread-safe.
    private let session: URLSession
    /// The timeout applied to each request, in seconds.
    public let requestTimeout: TimeInterval

    /// Creates a transport.
    /// - Parameter requestTimeout: seconds a request may take before it fails with
    ///   ``TransportError/timedOut(seconds:)``. Defaults to 30.
    public init(requestTimeout: TimeInterval = 30) {
        self.requestTimeout = requestTimeout
        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForRequest = requestTimeout
        configuration.timeoutIntervalForResource = requestTimeout
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        configuration.urlCache = nil
        configuration.httpCookieStorage = nil
        configuration.httpShouldSetCookies = false
        configuration.httpCookieAcceptPolicy = .never
        configuration.httpMaximumConnectionsPerHost = 1
        session = URLSession(configuration: configuration, delegate: RedirectRefusal(), delegateQueue: nil)
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
        let data: Data
        let response: URLResponse
        do {
            (data, response) = try await session.data(for: urlRequest)
        } catch let error as URLError {
            switch error.code {
            case .timedOut: throw .timedOut(seconds: requestTimeout)
            case .cancelled: throw .cancelled
            default: throw .network("\(error.code.rawValue) \(error.localizedDescription)")
            }
        } catch is CancellationError {
            throw .cancelled
        } catch {
            throw .network(String(describing: error))
        }
        guard let http = response as? HTTPURLResponse else {
            throw .invalidResponse("not an HTTP response")
        }
        var headers: [String: String] = [:]
        for (key, value) in http.allHeaderFields {
            if let name = key as? String, let text = value as? String { headers[name] = text }
        }
        return HTTPResponse(statusCode: http.statusCode, headers: headers, body: data)
    }
}
