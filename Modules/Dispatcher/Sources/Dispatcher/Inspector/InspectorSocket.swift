import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The POSIX socket calls the inspector makes, the same on Linux and Apple platforms: a
/// listening socket on 127.0.0.1, writes that never raise `SIGPIPE`, and bounded reads.
enum InspectorSocket {
    #if canImport(Glibc)
    private static let sendFlags = Int32(MSG_NOSIGNAL)
    private static let stream = Int32(SOCK_STREAM.rawValue)
    private static let noWait = Int32(MSG_DONTWAIT)
    #else
    private static let sendFlags: Int32 = 0
    private static let stream = SOCK_STREAM
    private static let noWait = MSG_DONTWAIT
    #endif

    /// Opens a socket listening on 127.0.0.1:`port` (0: a port the kernel chooses).
    /// - Returns: the descriptor and the port it listens on.
    /// - Throws: ``InspectorError/portInUse(port:)`` or ``InspectorError/cannotListen(call:port:errno:)``.
    static func listen(port: UInt16, backlog: Int32 = 64) throws(InspectorError) -> (descriptor: Int32, port: UInt16) {
        let descriptor = socket(AF_INET, stream, 0)
        guard descriptor >= 0 else { throw .cannotListen(call: "socket", port: port, errno: errno) }
        var one: Int32 = 1
        // Lets a restarted inspector take its port back while old connections linger in TIME_WAIT;
        // a port another socket listens on is still refused.
        setsockopt(descriptor, SOL_SOCKET, SO_REUSEADDR, &one, socklen_t(MemoryLayout<Int32>.size))
        _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = in_addr_t(0x7F00_0001).bigEndian
        #if canImport(Darwin)
        address.sin_len = UInt8(MemoryLayout<sockaddr_in>.size)
        #endif
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        if bound != 0 {
            let code = errno
            close(descriptor)
            if code == EADDRINUSE { throw .portInUse(port: port) }
            throw .cannotListen(call: "bind", port: port, errno: code)
        }
        guard systemListen(descriptor, backlog) == 0 else {
            let code = errno
            close(descriptor)
            if code == EADDRINUSE { throw .portInUse(port: port) }
            throw .cannotListen(call: "listen", port: port, errno: code)
        }
        guard let actual = localPort(descriptor) else {
            let code = errno
            close(descriptor)
            throw .cannotListen(call: "getsockname", port: port, errno: code)
        }
        return (descriptor, actual)
    }

    /// The system's `listen(2)` (the name is taken by ``listen(port:backlog:)``).
    private static func systemListen(_ descriptor: Int32, _ backlog: Int32) -> Int32 {
        #if canImport(Glibc)
        Glibc.listen(descriptor, backlog)
        #else
        Darwin.listen(descriptor, backlog)
        #endif
    }

    /// The local port of a bound IPv4 socket.
    static func localPort(_ descriptor: Int32) -> UInt16? {
        var address = sockaddr_in()
        var size = socklen_t(MemoryLayout<sockaddr_in>.size)
        let result = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &size) }
        }
        return result == 0 ? UInt16(bigEndian: address.sin_port) : nil
    }

    /// Sets an accepted connection up: no `SIGPIPE` (Apple), no Nagle delay, writes that give up
    /// after `sendTimeout` seconds, close-on-exec.
    static func configure(_ connection: Int32, sendTimeout: Int = 5) {
        var one: Int32 = 1
        #if canImport(Darwin)
        setsockopt(connection, SOL_SOCKET, SO_NOSIGPIPE, &one, socklen_t(MemoryLayout<Int32>.size))
        #endif
        setsockopt(connection, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
        var timeout = timeval()
        timeout.tv_sec = sendTimeout
        setsockopt(connection, SOL_SOCKET, SO_SNDTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        _ = fcntl(connection, F_SETFD, FD_CLOEXEC)
    }

    /// Writes every byte; `false` when the peer is gone or a write timed out.
    static func sendAll(_ connection: Int32, _ bytes: [UInt8]) -> Bool {
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeBytes { buffer in
                send(connection, buffer.baseAddress.map { $0 + offset }, buffer.count - offset, sendFlags)
            }
            if written < 0, errno == EINTR { continue }
            guard written > 0 else { return false }
            offset += written
        }
        return true
    }

    /// Waits up to `milliseconds` for `descriptor` to be readable (or closed by the peer).
    static func waitReadable(_ descriptor: Int32, milliseconds: Int32) -> Bool {
        var entry = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
        while true {
            let result = poll(&entry, 1, milliseconds)
            if result < 0, errno == EINTR { continue }
            return result > 0
        }
    }

    /// Reads what is available, at most `count` bytes; nil when the peer closed or on an error.
    static func receive(_ descriptor: Int32, into buffer: inout [UInt8], count: Int) -> Int? {
        var chunk = [UInt8](repeating: 0, count: count)
        while true {
            let read = chunk.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, count, 0) }
            if read < 0, errno == EINTR { continue }
            guard read > 0 else { return nil }
            buffer.append(contentsOf: chunk[0..<read])
            return read
        }
    }

    /// The connections among `descriptors` whose peer closed or failed, found without waiting.
    /// Whatever a peer sent meanwhile is read and dropped (a stream's client sends nothing more).
    static func closedByPeer(_ descriptors: [Int32]) -> [Int32] {
        guard !descriptors.isEmpty else { return [] }
        var entries = descriptors.map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
        guard poll(&entries, nfds_t(entries.count), 0) > 0 else { return [] }
        var closed: [Int32] = []
        var scratch = [UInt8](repeating: 0, count: 512)
        for entry in entries where entry.revents != 0 {
            let read = scratch.withUnsafeMutableBytes { recv(entry.fd, $0.baseAddress, $0.count, noWait) }
            if read == 0 || (read < 0 && errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR) { closed.append(entry.fd) }
        }
        return closed
    }

    /// Shuts both directions of `descriptor` down, so that a thread blocked on it returns.
    static func shutDown(_ descriptor: Int32) {
        _ = shutdown(descriptor, Int32(SHUT_RDWR))
    }

    /// Shuts the sending direction of `descriptor` down: the peer reads the end of the answer.
    static func shutDownWriting(_ descriptor: Int32) {
        _ = shutdown(descriptor, Int32(SHUT_WR))
    }

    /// Closes `descriptor`.
    static func close(_ descriptor: Int32) {
        #if canImport(Glibc)
        _ = Glibc.close(descriptor)
        #else
        _ = Darwin.close(descriptor)
        #endif
    }

    /// A pipe whose write end wakes the accept thread: `(read, write)`.
    static func makeWakePipe() -> (read: Int32, write: Int32)? {
        var ends: [Int32] = [0, 0]
        guard pipe(&ends) == 0 else { return nil }
        _ = fcntl(ends[0], F_SETFD, FD_CLOEXEC)
        _ = fcntl(ends[1], F_SETFD, FD_CLOEXEC)
        return (ends[0], ends[1])
    }

    /// Writes one byte to `descriptor` (the wake pipe).
    static func poke(_ descriptor: Int32) {
        var byte: UInt8 = 1
        _ = write(descriptor, &byte, 1)
    }
}
