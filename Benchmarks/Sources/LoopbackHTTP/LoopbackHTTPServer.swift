import DispatcherTestKit
import Foundation
import Tracking
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A real HTTP/1.1 server on 127.0.0.1 for tests and the demo's bench: POSIX sockets, a background thread per
/// connection, an ephemeral port chosen by the kernel.
///
/// Each request takes the next scripted ``Action`` (or ``defaultAction``): answer, drop the
/// connection, or stall. Every request is recorded, and the server tracks how many requests it
/// was handling at once. It stops itself after `lifetime` seconds, and on ``stop()``.
public final class LoopbackHTTPServer: Sendable {
    /// The port, chosen by the kernel.
    public let port: UInt16
    /// `http://127.0.0.1:<port>`.
    public var baseURL: URL { URL(string: "http://127.0.0.1:\(port)")! }
    /// The action once the script is used up.
    public let defaultAction: Action
    /// The answer to every request whose body came with `Content-Encoding: gzip`, instead of
    /// the script (a collector that refuses compressed bodies); nil follows the script.
    public let gzipAction: Action?

    private let listener: LoopbackListener
    private let recordBodies: Bool
    private let recordRequests: Bool
    private let state = LockedValue(State())

    /// The script and what the server has seen.
    private struct State {
        var script: [Action] = []
        var recorded: [Request] = []
        var active = 0
        var maxActive = 0
        var total = 0
        var totalBytes = 0
    }

    /// Starts a server.
    /// - Parameters:
    ///   - defaultAction: the answer once the script is used up. Defaults to ``Action/ok``.
    ///   - recordBodies: whether to keep request bodies (turn off for load tests).
    ///   - recordRequests: whether to keep each request in ``requests`` (turn off for long load
    ///     runs, whose memory would grow with every request: the counters are kept either way).
    ///   - lifetime: seconds after which the server stops itself. Defaults to 60.
    ///   - gzipAction: the answer to every gzip body, instead of the script; nil follows it.
    public init(
        defaultAction: Action = .ok, recordBodies: Bool = true, recordRequests: Bool = true, lifetime: TimeInterval = 60,
        gzipAction: Action? = nil
    ) throws {
        self.defaultAction = defaultAction
        self.gzipAction = gzipAction
        self.recordBodies = recordBodies && recordRequests
        self.recordRequests = recordRequests
        do { listener = try LoopbackListener(lifetime: lifetime) } catch { throw StartError(description: error.description) }
        port = listener.port
        listener.start { [self] connection in serve(connection) }
    }

    deinit { stop() }

    /// Adds actions for the next requests, in order.
    public func enqueue(_ actions: Action...) { enqueue(actions) }

    /// Adds actions for the next requests, in order.
    public func enqueue(_ actions: [Action]) { state.withLock { $0.script.append(contentsOf: actions) } }

    /// Every request received, in order (none when requests are not recorded).
    public var requests: [Request] { state.withLock { $0.recorded } }
    /// The number of requests received.
    public var requestCount: Int { state.withLock { $0.total } }
    /// The total request body bytes received.
    public var receivedBodyBytes: Int { state.withLock { $0.totalBytes } }
    /// The most requests that were being handled at the same moment.
    public var maxConcurrentRequests: Int { state.withLock { $0.maxActive } }

    /// Stops accepting and closes every connection.
    public func stop() { listener.stop() }

    private var isStopped: Bool { listener.isStopped }

    // MARK: - One connection

    /// Serves one connection's requests in turn. Every body is read in full, then its bytes are
    /// dropped from the connection's buffer before the answer: a body is never copied (unless
    /// bodies are recorded).
    private func serve(_ connection: Int32) {
        var buffer: [UInt8] = []
        buffer.reserveCapacity(1 << 16)
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while !isStopped {
            guard let head = readHead(connection, &buffer, chunk: &chunk) else { return }
            if head.headers["expect"]?.lowercased() == "100-continue", buffer.count - head.bodyStart < head.contentLength {
                guard writeAll(connection, Array("HTTP/1.1 100 Continue\r\n\r\n".utf8)) else { return }
            }
            let bodyEnd = head.bodyStart + head.contentLength
            guard readBody(connection, &buffer, upTo: bodyEnd, chunk: &chunk) else { return }
            let body = recordBodies ? Self.decoded(Data(buffer[head.bodyStart..<bodyEnd]), head.headers) : Data()
            buffer.removeFirst(bodyEnd)
            let action: Action = state.withLock { state in
                state.active += 1
                state.maxActive = max(state.maxActive, state.active)
                state.total += 1
                state.totalBytes += head.contentLength
                let next: Action
                if let gzipAction, head.headers["content-encoding"]?.lowercased() == "gzip" {
                    next = gzipAction
                } else {
                    next = state.script.isEmpty ? defaultAction : state.script.removeFirst()
                }
                if recordRequests {
                    state.recorded.append(Request(method: head.method, path: head.path, headers: head.headers,
                                                  body: body, bodyLength: head.contentLength, action: next,
                                                  receivedAt: Date()))
                }
                return next
            }
            // The request stops counting as active before its answer is written: the client may
            // send the next one, on another connection, as soon as it reads the answer.
            var active = true
            defer { if active { state.withLock { $0.active -= 1 } } }
            switch action {
            case .drop:
                return
            case .stall(let seconds):
                // Holds the request until the time passes or the client gives up and closes.
                let until = Date().addingTimeInterval(seconds)
                while Date() < until, !isStopped, !clientClosed(connection) {}
                return
            case .respond(let status, let headers, let responseBody):
                let closeAfter = head.headers["connection"]?.lowercased() == "close"
                var text = "HTTP/1.1 \(status) \(Self.reason(status))\r\nContent-Length: \(responseBody.count)\r\n"
                for (name, value) in headers { text += "\(name): \(value)\r\n" }
                text += closeAfter ? "Connection: close\r\n\r\n" : "Connection: keep-alive\r\n\r\n"
                state.withLock { $0.active -= 1 }
                active = false
                guard writeAll(connection, Array(text.utf8) + responseBody) else { return }
                if closeAfter { return }
            }
        }
    }

    /// Reads until a full request head is buffered and parses it; the head stays in `buffer`.
    /// `body` decoded when `headers` say it is gzip, else as it is.
    private static func decoded(_ body: Data, _ headers: [String: String]) -> Data {
        guard headers["content-encoding"]?.lowercased() == "gzip" else { return body }
        return GzipDecoder.decode(body) ?? body
    }

    private func readHead(_ connection: Int32, _ buffer: inout [UInt8], chunk: inout [UInt8]) -> HTTPRequestHead? {
        var searchFrom = 0
        while true {
            var index = max(0, searchFrom - 3)
            while index + 4 <= buffer.count {
                if buffer[index] == 13, buffer[index + 1] == 10, buffer[index + 2] == 13, buffer[index + 3] == 10 {
                    return HTTPRequestHead.parse(buffer[0..<index], bodyStart: index + 4)
                }
                index += 1
            }
            searchFrom = buffer.count
            guard receive(connection, &buffer, chunk: &chunk) else { return nil }
        }
    }

    private func readBody(_ connection: Int32, _ buffer: inout [UInt8], upTo end: Int, chunk: inout [UInt8]) -> Bool {
        while buffer.count < end {
            guard receive(connection, &buffer, chunk: &chunk) else { return false }
        }
        return true
    }

    /// Appends what arrives to `buffer`, through `chunk`: at once when bytes are waiting,
    /// otherwise in short polls so that ``stop()`` is noticed.
    private func receive(_ connection: Int32, _ buffer: inout [UInt8], chunk: inout [UInt8]) -> Bool {
        var wait = false
        while !isStopped {
            if wait {
                var poller = pollfd(fd: connection, events: Int16(POLLIN), revents: 0)
                let ready = poll(&poller, 1, 100)
                if ready == 0 { continue }
                if ready < 0 { return errno == EINTR }
            }
            let count = chunk.withUnsafeMutableBytes { recv(connection, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT)) }
            if count > 0 {
                buffer.append(contentsOf: chunk[0..<count])
                return true
            }
            if count == 0 { return false }
            switch errno {
            case EAGAIN, EWOULDBLOCK: wait = true
            case EINTR: continue
            default: return false
            }
        }
        return false
    }

    /// Waits up to 20 ms and says whether the client closed the connection.
    private func clientClosed(_ connection: Int32) -> Bool {
        var poller = pollfd(fd: connection, events: Int16(POLLIN), revents: 0)
        guard poll(&poller, 1, 20) > 0 else { return false }
        var byte: UInt8 = 0
        return recv(connection, &byte, 1, Int32(MSG_PEEK)) <= 0
    }

    private func writeAll(_ connection: Int32, _ bytes: [UInt8]) -> Bool {
        var sent = 0
        #if canImport(Glibc)
        let flags = Int32(MSG_NOSIGNAL)
        #else
        let flags: Int32 = 0
        #endif
        while sent < bytes.count {
            let count = bytes.withUnsafeBytes { raw -> Int in
                guard let base = raw.baseAddress else { return -1 }
                return send(connection, base + sent, raw.count - sent, flags)
            }
            if count < 0, errno == EINTR { continue }
            if count <= 0 { return false }
            sent += count
        }
        return true
    }

    private static func reason(_ status: Int) -> String {
        switch status {
        case 200: "OK"
        case 301: "Moved Permanently"
        case 302: "Found"
        case 303: "See Other"
        case 307: "Temporary Redirect"
        case 308: "Permanent Redirect"
        case 400: "Bad Request"
        case 401: "Unauthorized"
        case 403: "Forbidden"
        case 404: "Not Found"
        case 408: "Request Timeout"
        case 413: "Payload Too Large"
        case 422: "Unprocessable Entity"
        case 429: "Too Many Requests"
        case 500: "Internal Server Error"
        case 503: "Service Unavailable"
        default: "Status"
        }
    }
}
