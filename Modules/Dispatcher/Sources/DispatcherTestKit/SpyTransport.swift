import Dispatcher
import Foundation
import Tracking

/// An `HTTPTransport` for tests: records every request and answers from a script.
///
/// ```swift
/// let transport = SpyTransport(responses: [.success(HTTPResponse(statusCode: 500)), .failure(.timedOut(seconds: 1))])
/// ```
/// When the script runs out, it answers ``defaultResponse``. A body sent with
/// `Content-Encoding: gzip` is recorded decoded, as a collector reads it (the header stays).
public final class SpyTransport: HTTPTransport {
    /// The answers still to give, and the requests received.
    private struct Exchange {
        var script: [Result<HTTPResponse, TransportError>]
        var recorded: [HTTPRequest] = []
    }

    private let exchange: LockedValue<Exchange>
    /// The answer once the script is used up.
    public let defaultResponse: HTTPResponse

    /// Creates a spy.
    /// - Parameters:
    ///   - responses: answers for the first requests, in order.
    ///   - defaultResponse: the answer after that. Defaults to `200` with `{"success":true}`.
    public init(
        responses: [Result<HTTPResponse, TransportError>] = [],
        defaultResponse: HTTPResponse = HTTPResponse(statusCode: 200, body: Data(#"{"success":true}"#.utf8))
    ) {
        exchange = LockedValue(Exchange(script: responses))
        self.defaultResponse = defaultResponse
    }

    /// Every request sent, in order.
    public var requests: [HTTPRequest] { exchange.withLock { $0.recorded } }

    /// Adds answers to the end of the script.
    public func enqueue(_ responses: Result<HTTPResponse, TransportError>...) {
        exchange.withLock { $0.script.append(contentsOf: responses) }
    }

    /// Records the request (its body decoded when gzip) and returns the next scripted answer.
    public func send(_ request: HTTPRequest) async throws(TransportError) -> HTTPResponse {
        var received = request
        if request.header("Content-Encoding")?.lowercased() == "gzip", let decoded = GzipDecoder.decode(request.body) {
            received.body = decoded
        }
        let next: Result<HTTPResponse, TransportError> = exchange.withLock {
            $0.recorded.append(received)
            return $0.script.isEmpty ? .success(defaultResponse) : $0.script.removeFirst()
        }
        return try next.get()
    }
}
