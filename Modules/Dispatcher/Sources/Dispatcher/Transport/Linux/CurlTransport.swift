#if os(Linux)
import CCurl
import Foundation

/// The ``HTTPTransport`` on Linux, the default there (see ``DefaultHTTPTransport``): the
/// system libcurl's easy interface, run on a serial queue of the library's own, which waits in
/// `poll` (FoundationNetworking's `URLSession` busy-loops on a slow collector).
///
/// Each request has an overall deadline (libcurl's, and the library's own timer, which answers
/// ``TransportError/timedOut(seconds:)`` whatever libcurl does), a low-speed limit (under one byte
/// a second for half the timeout fails), at most ``maxResponseBytes`` of body
/// (``HTTPResponse/bodyTruncated``) and 16 KiB of headers; no redirect is followed, http and https
/// only. One request runs at a time, on a kept connection; cancelling the calling task stops it
/// within about a second.
public final class CurlTransport: HTTPTransport, Sendable {
    /// Seconds a request may take, connection included.
    public let requestTimeout: TimeInterval
    /// The most bytes of a response body kept.
    public let maxResponseBytes: Int
    private let queue = BlockingQueue(label: "Dispatcher.CurlTransport")
    private let handle: CurlHandle?

    /// Creates a transport.
    /// - Parameters:
    ///   - requestTimeout: seconds a request may take before it fails with
    ///     ``TransportError/timedOut(seconds:)``. Defaults to 30.
    ///   - maxResponseBytes: the most bytes of a response body kept. Defaults to 4096.
    public init(requestTimeout: TimeInterval = 30, maxResponseBytes: Int = 4096) {
        self.requestTimeout = requestTimeout.isFinite && requestTimeout > 0 ? requestTimeout : 30
        self.maxResponseBytes = max(0, maxResponseBytes)
        handle = CurlHandle.make()
    }

    /// Sends the request through libcurl.
    public func send(_ request: HTTPRequest) async throws(TransportError) -> HTTPResponse {
        guard let handle else { throw .network("libcurl could not be initialised") }
        let transfer = CurlTransfer(maxBodyBytes: maxResponseBytes, maxHeaderBytes: 16_384)
        let completion = TransportCompletion()
        let timeout = requestTimeout
        queue.start {
            // A request stopped while it waited for the queue is not sent at all.
            guard !transfer.isStopped else { return }
            completion.finish(handle.perform(request, transfer: transfer, timeout: timeout))
        }
        let result = await completion.wait(seconds: timeout, expired: { transfer.stop() }, cancelled: { transfer.stop() })
        return try result.get()
    }
}

/// One libcurl easy handle, reused request after request (it keeps the connection), and
/// cleaned up when the last reference goes. Confined to its ``CurlTransport``'s serial
/// ``BlockingQueue``: ``perform(_:transfer:timeout:)`` runs only there, one request at a time.
final class CurlHandle: @unchecked Sendable {
    // Unchecked: `pointer` is a libcurl C handle, not Sendable; only the owner's serial queue uses it.
    private let pointer: UnsafeMutableRawPointer

    /// libcurl's process-wide set-up, done once before the first handle.
    private static let initialised: Bool = ccurl_global_init() == CURLE_OK

    private init(pointer: UnsafeMutableRawPointer) { self.pointer = pointer }

    deinit { curl_easy_cleanup(pointer) }

    /// A new handle, or nil when libcurl cannot give one.
    static func make() -> CurlHandle? {
        guard initialised, let pointer = curl_easy_init() else { return nil }
        return CurlHandle(pointer: pointer)
    }

    /// Runs one request to its end (blocking: call it on the transport's queue).
    func perform(_ request: HTTPRequest, transfer: CurlTransfer, timeout: TimeInterval) -> Result<HTTPResponse, TransportError> {
        curl_easy_reset(pointer)
        var headers: UnsafeMutablePointer<curl_slist>?
        defer { curl_slist_free_all(headers) }
        // "Expect:" turns off `100-continue`, which would wait a second before a large body.
        for line in request.headers.map({ "\($0.key): \($0.value)" }) + ["Expect:"] {
            headers = curl_slist_append(headers, line)
        }
        let context = Unmanaged.passUnretained(transfer).toOpaque()
        let milliseconds = max(1, Int(timeout * 1000))
        let code: CURLcode = withExtendedLifetime(transfer) {
            request.body.withUnsafeBytes { body in
                let prepared = ccurl_prepare(
                    pointer, request.url.absoluteString, request.method, body.baseAddress, Int64(body.count), headers,
                    milliseconds, max(1, milliseconds / 2000), CurlTransfer.onBody, CurlTransfer.onHeader,
                    CurlTransfer.onProgress, context)
                guard prepared == CURLE_OK else { return prepared }
                return curl_easy_perform(pointer)
            }
        }
        let status = Int(ccurl_response_code(pointer))
        let response = transfer.response
        switch code {
        case CURLE_OK:
            return .success(HTTPResponse(statusCode: status, headers: response.headers, body: response.body))
        case CURLE_WRITE_ERROR where response.bodyTruncated && status > 0:
            return .success(HTTPResponse(statusCode: status, headers: response.headers, body: response.body, bodyTruncated: true))
        case _ where response.headersTooLarge:
            return .failure(.invalidResponse("response headers over \(transfer.maxHeaderBytes) bytes"))
        case CURLE_OPERATION_TIMEDOUT:
            return .failure(.timedOut(seconds: timeout))
        case CURLE_ABORTED_BY_CALLBACK:
            return .failure(.cancelled)
        default:
            return .failure(.network("\(code.rawValue) \(String(cString: curl_easy_strerror(code)))"))
        }
    }
}
#endif
