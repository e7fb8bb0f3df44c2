import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The `URLSession` delegate of ``URLSessionTransport``: refuses every HTTP redirect, so the 3xx
/// response itself comes back to the destination (which retries it), and a request and its
/// `Authorization` header never reach a host other than the configured endpoint.
final class RedirectRefusal: NSObject, URLSessionTaskDelegate, Sendable {
    /// Answers `nil`: the redirect is not followed.
    func urlSession(
        _ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
        newRequest request: URLRequest, completionHandler: @escaping @Sendable (URLRequest?) -> Void
    ) {
        completionHandler(nil)
    }
}
