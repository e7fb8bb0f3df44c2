import Dispatcher
import Foundation

/// An ``Dispatcher/HTTPTransport`` for tests: records every request and answers from a script.
///
/// ```swift
/// let transport = SpyTransport(responses: [.success(HTTPResponse(statusCode: 500)), .failure(.timedOut(seconds: 1))])
/// ```
/// When the script runs out, it answers ``defaultResponse``.
public final class SpyTransport: HTTPTransport, @unchecked Sendable {
    // Safe: `script` and `recorded` are only touched while holding `lock`.
    private let lock = NSLock()
    private var script: [Result<HTTPResponse, TransportError>]
    private var recorded: [HTTPRequest] = []
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
        script = responses
        self.defaultResponse = defaultResponse
    }

    /// Every request sent, in order.
    public var requests: [HTTPRequest] { lock.withLock { recorded } }

    /// Adds answers to the end of the script.
    public func enqueue(_ responses: Result<HTTPResponse, TransportError>...) {
        lock.withLock { script.append(contentsOf: responses) }
    }

    /// Records the request and returns the next scripted answer.
    public func send(_ request: HTTPRequest) async throws(TransportError) -> HTTPResponse {
        let next: Result<HTTPResponse, TransportError> = lock.withLock {
            recorded.append(request)
            return script.isEmpty ? .success(defaultResponse) : script.removeFirst()
        }
        return try next.get()
    }
}
