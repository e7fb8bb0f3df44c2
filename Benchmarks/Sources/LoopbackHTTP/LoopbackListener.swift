import Foundation
import Tracking
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A listening TCP socket on a loopback address (127.0.0.1, or ::1) with a port the kernel
/// chooses, and the thread that accepts its connections: each goes to the handler given to
/// ``start(_:)`` on a thread of its own, and is closed once the handler returns. It stops itself
/// after `lifetime` seconds, and on ``stop()``, which shuts every open connection down, so that
/// a handler blocked reading or writing returns.
public final class LoopbackListener: Sendable {
    /// Why a listener could not start.
    public struct StartError: Error, CustomStringConvertible {
        /// What failed, with `errno`.
        public var description: String
    }

    /// The port, chosen by the kernel.
    public let port: UInt16
    /// `http://127.0.0.1:<port>` or `http://[::1]:<port>`.
    public let baseURL: URL

    private let descriptor: Int32
    private let deadline: Date
    private let state = LockedValue(State())

    /// Whether it stopped, the open connections and the handler they go to.
    private struct State {
        var stopped = false
        var connections: Set<Int32> = []
        var accepted = 0
        var handler: (@Sendable (Int32) -> Void)?
    }

    /// Opens the socket and listens; nothing is accepted before ``start(_:)``.
    /// - Parameters:
    ///   - ipv6: listen on `::1` instead of `127.0.0.1`.
    ///   - receiveBufferBytes: the receive buffer of every connection, when set (a small one
    ///     stalls a client's upload).
    ///   - backlog: the connections the kernel queues before they are accepted.
    ///   - lifetime: seconds after which the listener stops itself.
    public init(ipv6: Bool = false, receiveBufferBytes: Int32? = nil, backlog: Int32 = 64, lifetime: TimeInterval) throws(StartError) {
        #if canImport(Glibc)
        let descriptor = socket(ipv6 ? AF_INET6 : AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #else
        let descriptor = socket(ipv6 ? AF_INET6 : AF_INET, SOCK_STREAM, 0)
        #endif
        guard descriptor >= 0 else { throw StartError(description: "socket: errno \(errno)") }
        var one: Int32 = 1
        setsockopt(descriptor, SOL_SOCKET, SO_REUSEADDR, &one, socklen_t(MemoryLayout<Int32>.size))
        if var bytes = receiveBufferBytes {
            // Inherited by the accepted sockets.
            setsockopt(descriptor, SOL_SOCKET, SO_RCVBUF, &bytes, socklen_t(MemoryLayout<Int32>.size))
        }
        var storage = sockaddr_storage()
        withUnsafeMutableBytes(of: &storage) { raw in
            if ipv6 {
                var address = sockaddr_in6()
                address.sin6_family = sa_family_t(AF_INET6)
                address.sin6_addr = in6addr_loopback
                withUnsafeBytes(of: &address) { raw.copyMemory(from: $0) }
            } else {
                var address = sockaddr_in()
                address.sin_family = sa_family_t(AF_INET)
                address.sin_addr.s_addr = inet_addr("127.0.0.1")
                withUnsafeBytes(of: &address) { raw.copyMemory(from: $0) }
            }
        }
        let length = socklen_t(ipv6 ? MemoryLayout<sockaddr_in6>.size : MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafePointer(to: &storage) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, length) }
        }
        guard bound == 0, listen(descriptor, backlog) == 0 else {
            let code = errno
            close(descriptor)
            throw StartError(description: "bind/listen on \(ipv6 ? "::1" : "127.0.0.1"): errno \(code)")
        }
        var size = socklen_t(MemoryLayout<sockaddr_storage>.size)
        _ = withUnsafeMutablePointer(to: &storage) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &size) }
        }
        let port = withUnsafeBytes(of: &storage) { raw in
            ipv6 ? raw.load(as: sockaddr_in6.self).sin6_port : raw.load(as: sockaddr_in.self).sin_port
        }
        self.descriptor = descriptor
        self.port = UInt16(bigEndian: port)
        baseURL = URL(string: ipv6 ? "http://[::1]:\(self.port)" : "http://127.0.0.1:\(self.port)")!
        deadline = Date().addingTimeInterval(lifetime)
    }

    deinit { stop() }

    /// Starts accepting: every connection goes to `handler`, on a thread of its own.
    public func start(_ handler: @escaping @Sendable (Int32) -> Void) {
        state.withLock { $0.handler = handler }
        let thread = Thread { [self] in acceptLoop() }
        thread.name = "LoopbackListener.accept"
        thread.start()
    }

    /// Whether the listener stopped.
    public var isStopped: Bool { state.withLock { $0.stopped } }
    /// The connections accepted so far.
    public var connectionCount: Int { state.withLock { $0.accepted } }

    /// Stops accepting and shuts every open connection down.
    public func stop() {
        let open: Set<Int32>? = state.withLock { state in
            if state.stopped { return nil }
            state.stopped = true
            state.handler = nil
            return state.connections
        }
        guard let open else { return }
        shutdown(descriptor, Int32(SHUT_RDWR))
        for connection in open { shutdown(connection, Int32(SHUT_RDWR)) }
    }

    private func acceptLoop() {
        defer { close(descriptor) }
        while !isStopped {
            if Date() >= deadline { return stop() }
            var poller = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
            guard poll(&poller, 1, 100) > 0 else { continue }
            let connection = accept(descriptor, nil, nil)
            guard connection >= 0 else { continue }
            var one: Int32 = 1
            setsockopt(connection, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
            #if canImport(Darwin)
            setsockopt(connection, SOL_SOCKET, SO_NOSIGPIPE, &one, socklen_t(MemoryLayout<Int32>.size))
            #endif
            let serve: (@Sendable (Int32) -> Void)? = state.withLock { state in
                guard !state.stopped, let handler = state.handler else { return nil }
                state.connections.insert(connection)
                state.accepted += 1
                return handler
            }
            guard let serve else {
                close(connection)
                return
            }
            let thread = Thread { [self] in
                serve(connection)
                state.withLock { _ = $0.connections.remove(connection) }
                close(connection)
            }
            thread.name = "LoopbackListener.connection"
            thread.start()
        }
    }
}
