import Foundation
import Tracking
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A collector on a loopback address (127.0.0.1 or ::1) that misbehaves in one chosen way, for
/// every connection: raw POSIX sockets, a thread per connection, an ephemeral port. It stops
/// itself after `lifetime` seconds, and on ``stop()``.
public final class HostileCollector: Sendable {
    /// How every connection is treated.
    public enum Behaviour: Sendable, Equatable {
        /// Reads the request, then answers `200` with a body of this many bytes, as fast as the
        /// client reads it.
        case hugeBody(bytes: Int)
        /// Reads the request, then answers `200` with a chunked body that never ends, at about
        /// this many bytes a second.
        case endlessBody(bytesPerSecond: Int)
        /// Reads the request, then sends a `200` response one byte every `interval` seconds.
        case trickle(interval: Double)
        /// Accepts and never reads (its receive buffer is small, so a client's body stalls).
        case neverRead
        /// Reads the request, sends the status line and headers of a `200` with a body, then
        /// nothing more.
        case headersThenStall
        /// Reads the request and answers this status and body, then closes.
        case respond(status: Int, body: Data)
    }

    /// The port, chosen by the kernel.
    public var port: UInt16 { listener.port }
    /// The behaviour of every connection.
    public let behaviour: Behaviour
    /// `http://127.0.0.1:<port>` or `http://[::1]:<port>`.
    public var baseURL: URL { listener.baseURL }

    private let listener: LoopbackListener
    private let written = LockedValue(0)

    /// Starts a collector.
    /// - Parameters:
    ///   - behaviour: what it does with every connection.
    ///   - ipv6: listen on `::1` instead of `127.0.0.1`.
    ///   - lifetime: seconds after which it stops itself. Defaults to 60.
    public init(_ behaviour: Behaviour, ipv6: Bool = false, lifetime: TimeInterval = 60) throws {
        self.behaviour = behaviour
        listener = try LoopbackListener(ipv6: ipv6, receiveBufferBytes: behaviour == .neverRead ? 4_096 : nil,
                                        backlog: 16, lifetime: lifetime)
        listener.start { [self] connection in serve(connection) }
    }

    deinit { stop() }

    /// The connections accepted so far.
    public var connectionCount: Int { listener.connectionCount }
    /// The response bytes written so far, over every connection.
    public var bytesWritten: Int { written.withLock { $0 } }

    /// Stops accepting and closes every connection.
    public func stop() { listener.stop() }

    private var isStopped: Bool { listener.isStopped }

    #if canImport(Glibc)
    private static let sendFlags = Int32(MSG_NOSIGNAL)
    #else
    private static let sendFlags: Int32 = 0
    #endif

    private func serve(_ connection: Int32) {
        if behaviour != .neverRead, !readRequest(connection) { return }
        switch behaviour {
        case .hugeBody(let bytes):
            guard write(connection, "HTTP/1.1 200 OK\r\nContent-Length: \(bytes)\r\n\r\n") else { return }
            let block = Data(repeating: UInt8(ascii: "x"), count: 65_536)
            var left = bytes
            while left > 0, write(connection, block.prefix(left)) { left -= min(left, block.count) }
        case .endlessBody(let rate):
            guard write(connection, "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n") else { return }
            let chunk = Data("10000\r\n".utf8) + Data(repeating: UInt8(ascii: "y"), count: 65_536) + Data("\r\n".utf8)
            let pause = useconds_t(max(1, 1_000_000 * 65_536 / max(1, rate)))
            while write(connection, chunk) { usleep(pause) }
        case .trickle(let interval):
            for byte in Data("HTTP/1.1 200 OK\r\nContent-Length: 16\r\n\r\n{\"success\":true}".utf8) {
                guard waitOrStop(interval), write(connection, Data([byte])) else { return }
            }
        case .neverRead, .headersThenStall:
            if behaviour == .headersThenStall, !write(connection, "HTTP/1.1 200 OK\r\nContent-Length: 16\r\n\r\n") { return }
            while waitOrStop(0.2) {}
        case .respond(let status, let body):
            _ = write(connection, Data("HTTP/1.1 \(status) Status\r\nContent-Length: \(body.count)\r\nConnection: close\r\n\r\n".utf8) + body)
        }
    }

    /// Reads a request head and its `Content-Length` body; false when the client went away.
    private func readRequest(_ connection: Int32) -> Bool {
        var buffer = Data()
        var chunk = [UInt8](repeating: 0, count: 65_536)
        var needed: Int?
        while !isStopped {
            if let needed, buffer.count >= needed { return true }
            if needed == nil, let end = buffer.range(of: Data("\r\n\r\n".utf8)) {
                let head = String(decoding: buffer[..<end.lowerBound], as: UTF8.self).lowercased()
                let length = head.split(separator: "\r\n").first { $0.hasPrefix("content-length:") }
                    .flatMap { Int($0.dropFirst("content-length:".count).trimmingCharacters(in: .whitespaces)) } ?? 0
                needed = end.upperBound + length
                continue
            }
            var poller = pollfd(fd: connection, events: Int16(POLLIN), revents: 0)
            guard poll(&poller, 1, 100) >= 0 else { return false }
            guard poller.revents != 0 else { continue }
            let count = chunk.withUnsafeMutableBytes { recv(connection, $0.baseAddress, $0.count, 0) }
            guard count > 0 else { return false }
            buffer.append(contentsOf: chunk[0..<count])
        }
        return false
    }

    private func write(_ connection: Int32, _ text: String) -> Bool { write(connection, Data(text.utf8)) }

    private func write(_ connection: Int32, _ bytes: Data) -> Bool {
        var sent = 0
        while sent < bytes.count, !isStopped {
            let count = bytes.withUnsafeBytes { raw in
                send(connection, raw.baseAddress! + sent, raw.count - sent, Self.sendFlags)
            }
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { return false }
            sent += count
            written.withLock { $0 += count }
        }
        return sent == bytes.count
    }

    /// Sleeps `seconds` in short steps; false once the collector is stopped.
    private func waitOrStop(_ seconds: Double) -> Bool {
        let until = Date().addingTimeInterval(seconds)
        while Date() < until {
            if isStopped { return false }
            usleep(useconds_t(min(100_000, max(1_000, until.timeIntervalSinceNow * 1_000_000))))
        }
        return !isStopped
    }
}
