import Foundation

/// What happened to the events of a request that were sent, as a destination classifies it.
public enum DeliveryOutcome: Sendable, Equatable {
    /// The destination acknowledged every event sent.
    case delivered
    /// A temporary failure: network error, timeout, 408, 429, 5xx, or a redirect (3xx, never
    /// followed). Retry later, no sooner than `retryAfter` when the server said so.
    case retry(reason: String, retryAfter: RetryAfter?)
    /// The request was too large (413): split the batch.
    case tooLarge(reason: String)
    /// The destination refused the events for good (400, 422, other 4xx).
    case rejected(reason: String)
    /// The collector refused the endpoint or the credentials (401, 403, 404): nothing is wrong
    /// with the events, so they stay pending, no attempt counted, and delivery pauses.
    case endpointRefused(reason: String)

    /// Classifies an HTTP response: 2xx delivered, unless its body was cut short
    /// (``HTTPResponse/bodyTruncated``: the response never completed, so it retries); 408, 429
    /// and 5xx retry (with `Retry-After`); 3xx retry, the reason naming the `Location` host
    /// (never its user or password, nor the body); 401, 403 and 404 refuse the endpoint (the
    /// reason names the cause, without the body, which might echo the credentials); 413 too
    /// large; every other status rejected. The collector's text in a reason has its control
    /// characters escaped and is cut short (``HTTPResponse/bodySnippet(limit:)``).
    public init(response: HTTPResponse) {
        let status = response.statusCode
        let reason = "HTTP \(status)" + (response.body.isEmpty ? "" : ": " + response.bodySnippet())
        switch status {
        case 200..<300 where response.bodyTruncated:
            self = .retry(reason: "HTTP \(status) with a response body over \(response.body.count) bytes, not read to its end: not counted as delivered",
                          retryAfter: nil)
        case 200..<300: self = .delivered
        case 300..<400:
            self = .retry(reason: Self.redirectReason(status: status, location: response.header("Location")), retryAfter: nil)
        case 408, 429, 500..<600:
            self = .retry(reason: reason, retryAfter: response.header("Retry-After").flatMap(RetryAfter.init(headerValue:)))
        case 401: self = .endpointRefused(reason: "HTTP 401: the collector refused the credentials")
        case 403: self = .endpointRefused(reason: "HTTP 403: the collector forbade access with these credentials")
        case 404: self = .endpointRefused(reason: "HTTP 404: no collector at the endpoint URL")
        case 413: self = .tooLarge(reason: reason)
        default: self = .rejected(reason: reason)
        }
    }

    /// Classifies a transport failure: always a retry.
    public init(error: TransportError) {
        self = .retry(reason: error.description, retryAfter: nil)
    }

    /// `HTTP 302: redirect to host:port not followed`: only the host of `Location`, since its
    /// user, password, path or query may carry secrets.
    static func redirectReason(status: Int, location: String?) -> String {
        let target: String
        if let location, let url = URL(string: location.trimmingCharacters(in: .whitespaces)), let host = url.host, !host.isEmpty {
            target = "redirect to " + CollectorText.sanitized(host, limit: 100) + (url.port.map { ":\($0)" } ?? "")
        } else {
            target = location == nil ? "redirect without a Location" : "redirect to a relative Location"
        }
        return "HTTP \(status): \(target) not followed (deliveries never follow redirects)"
    }
}
