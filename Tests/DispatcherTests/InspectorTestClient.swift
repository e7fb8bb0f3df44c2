import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A raw HTTP/1.1 client over POSIX sockets for the inspector's tests: it sends exactly the
/// head it is given (a `Host` or `Origin` of our choosing), and reads the answer to the end or
/// an event stream message by message, every read bounded by a deadline.
struct InspectorTestClient {
    /// An answer.
    struct Response {
        var status: Int
        /// Header names lowercased.
        var headers: [String: String]
        var body: Data
        /// The whole answer as text, head included.
        var raw: String
        var text: String { String(decoding: body, as: UTF8.self) }
        var json: [String: Any] { (try? JSONSerialization.jsonObject(with: body)) as? [String: Any] ?? [:] }
    }

    /// Why a request could not be made.
    struct Failure: Error, CustomStringConvertible { var description: String }

    #if canImport(Glibc)
    private static let stream = Int32(SOCK_STREAM.rawValue)
    private static let sendFlags = Int32(MSG_NOSIGNAL)
    #else
    private static let stream = SOCK_STREAM
    private static let sendFlags: Int32 = 0
    #endif

    /// Connects to `address:port` (IPv4, dotted) within `timeout`; the descriptor, or the errno.
    static func connect(to address: String, port: UInt16, timeout: TimeInterval = 2) -> Result<Int32, Failure> {
        let descriptor = socket(AF_INET, stream, 0)
        guard descriptor >= 0 else { return .failure(Failure(description: "socket errno \(errno)")) }
        #if canImport(Darwin)
        var one: Int32 = 1
        setsockopt(descriptor, SOL_SOCKET, SO_NOSIGPIPE, &one, socklen_t(MemoryLayout<Int32>.size))
        #endif
        let flags = fcntl(descriptor, F_GETFL, 0)
        _ = fcntl(descriptor, F_SETFL, flags | O_NONBLOCK)
        var target = sockaddr_in()
        target.sin_family = sa_family_t(AF_INET)
        target.sin_port = port.bigEndian
        target.sin_addr.s_addr = inet_addr(address)
        let result = withUnsafePointer(to: &target) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { systemConnect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        if result != 0 {
            guard errno == EINPROGRESS else {
                let code = errno
                close(descriptor)
                return .failure(Failure(description: "connect errno \(code)"))
            }
            var entry = pollfd(fd: descriptor, events: Int16(POLLOUT), revents: 0)
            guard poll(&entry, 1, Int32(timeout * 1000)) > 0 else {
                close(descriptor)
                return .failure(Failure(description: "connect timed out"))
            }
            var code: Int32 = 0
            var size = socklen_t(MemoryLayout<Int32>.size)
            getsockopt(descriptor, SOL_SOCKET, SO_ERROR, &code, &size)
            guard code == 0 else {
                close(descriptor)
                return .failure(Failure(description: "connect errno \(code)"))
            }
        }
        _ = fcntl(descriptor, F_SETFL, flags)
        return .success(descriptor)
    }

    private static func systemConnect(_ descriptor: Int32, _ address: UnsafePointer<sockaddr>, _ length: socklen_t) -> Int32 {
        #if canImport(Glibc)
        Glibc.connect(descriptor, address, length)
        #else
        Darwin.connect(descriptor, address, length)
        #endif
    }

    /// Sends `head` (CRLF line ends and the blank line included) and reads the answer to the end.
    static func send(_ head: String, port: UInt16, timeout: TimeInterval = 5) throws -> Response {
        let descriptor = try connect(to: "127.0.0.1", port: port).get()
        defer { close(descriptor) }
        guard write(descriptor, Array(head.utf8)) else { throw Failure(description: "the request could not be written") }
        var bytes: [UInt8] = []
        let deadline = Date().addingTimeInterval(timeout)
        while let chunk = read(descriptor, until: deadline) { bytes += chunk }
        return try parse(bytes)
    }

    /// `GET path` with `Host: 127.0.0.1:port` and the extra header lines given.
    static func get(_ path: String, port: UInt16, method: String = "GET", host: String? = nil, extra: [String] = []) throws -> Response {
        let lines = ["\(method) \(path) HTTP/1.1", "Host: \(host ?? "127.0.0.1:\(port)")"] + extra + ["Connection: close", "", ""]
        return try send(lines.joined(separator: "\r\n"), port: port)
    }

    static func write(_ descriptor: Int32, _ bytes: [UInt8]) -> Bool {
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeBytes { systemSend(descriptor, $0.baseAddress.map { $0 + offset }, bytes.count - offset) }
            guard written > 0 else { return false }
            offset += written
        }
        return true
    }

    private static func systemSend(_ descriptor: Int32, _ pointer: UnsafeRawPointer?, _ count: Int) -> Int {
        #if canImport(Glibc)
        Glibc.send(descriptor, pointer, count, sendFlags)
        #else
        Darwin.send(descriptor, pointer, count, sendFlags)
        #endif
    }

    /// What arrives before `deadline`; nil at the end of the stream, an error or the deadline.
    static func read(_ descriptor: Int32, until deadline: Date) -> [UInt8]? {
        let remaining = deadline.timeIntervalSinceNow
        guard remaining > 0 else { return nil }
        var entry = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
        guard poll(&entry, 1, Int32(remaining * 1000) + 1) > 0 else { return nil }
        var chunk = [UInt8](repeating: 0, count: 65_536)
        let count = chunk.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
        return count > 0 ? Array(chunk[0..<count]) : nil
    }

    /// Splits an answer into status, headers and body.
    static func parse(_ bytes: [UInt8]) throws -> Response {
        let raw = String(decoding: bytes, as: UTF8.self)
        guard let split = raw.range(of: "\r\n\r\n") else { throw Failure(description: "no complete head in \(raw.prefix(200))") }
        let lines = raw[..<split.lowerBound].components(separatedBy: "\r\n")
        let status = lines.first.flatMap { $0.split(separator: " ").dropFirst().first }.flatMap { Int($0) } ?? 0
        var headers: [String: String] = [:]
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        let headLength = raw[..<split.upperBound].utf8.count
        return Response(status: status, headers: headers, body: Data(bytes[headLength...]), raw: raw)
    }
}

/// An open `/api/stream`, read message by message.
final class InspectorTestStream {
    /// One message: its event name and data.
    struct Message {
        var event: String
        var data: String
        var json: [String: Any] { (try? JSONSerialization.jsonObject(with: Data(data.utf8))) as? [String: Any] ?? [:] }
    }

    let descriptor: Int32
    private var buffer = ""
    /// The head of the answer.
    private(set) var head = ""
    /// Everything read so far, head included.
    private(set) var everything = ""
    /// The reconnection delay the server asked for, in milliseconds (its `retry:` field).
    private(set) var retry: Int?

    /// Connects and sends `GET /api/stream`.
    init(port: UInt16) throws {
        descriptor = try InspectorTestClient.connect(to: "127.0.0.1", port: port).get()
        let request = "GET /api/stream HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nAccept: text/event-stream\r\n\r\n"
        guard InspectorTestClient.write(descriptor, Array(request.utf8)) else {
            throw InspectorTestClient.Failure(description: "the stream request could not be written")
        }
    }

    deinit { close(descriptor) }

    /// The next message, or nil when none completes within `timeout`.
    func next(timeout: TimeInterval = 2) -> Message? {
        let deadline = Date().addingTimeInterval(timeout)
        while true {
            if head.isEmpty, let split = buffer.range(of: "\r\n\r\n") {
                head = String(buffer[..<split.lowerBound])
                buffer = String(buffer[split.upperBound...])
            }
            if !head.isEmpty, let end = buffer.range(of: "\n\n") {
                let block = String(buffer[..<end.lowerBound])
                buffer = String(buffer[end.upperBound...])
                var message = Message(event: "message", data: "")
                for line in block.split(separator: "\n") {
                    if line.hasPrefix("event: ") { message.event = String(line.dropFirst(7)) }
                    if line.hasPrefix("data: ") { message.data += line.dropFirst(6) }
                    if line.hasPrefix("retry: ") { retry = Int(line.dropFirst(7)) }
                }
                // A comment (keep-alive) or a field for the client alone (retry) is no message.
                if block.hasPrefix(":") || block.hasPrefix("retry: ") { continue }
                return message
            }
            guard let chunk = InspectorTestClient.read(descriptor, until: deadline) else { return nil }
            let text = String(decoding: chunk, as: UTF8.self)
            buffer += text
            everything += text
        }
    }

    /// Whether the server closes the stream within `timeout` (what arrives meanwhile is dropped).
    func closes(within timeout: TimeInterval) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        var chunk = [UInt8](repeating: 0, count: 65_536)
        while deadline.timeIntervalSinceNow > 0 {
            var entry = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
            guard poll(&entry, 1, Int32(deadline.timeIntervalSinceNow * 1000) + 1) > 0 else { return false }
            let count = chunk.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
            if count <= 0 { return true }
        }
        return false
    }

    /// Reads messages until one satisfies `accept`, for at most `timeout`.
    func first(within timeout: TimeInterval, where accept: (Message) -> Bool) -> Message? {
        let deadline = Date().addingTimeInterval(timeout)
        while deadline.timeIntervalSinceNow > 0 {
            guard let message = next(timeout: deadline.timeIntervalSinceNow) else { return nil }
            if accept(message) { return message }
        }
        return nil
    }
}
