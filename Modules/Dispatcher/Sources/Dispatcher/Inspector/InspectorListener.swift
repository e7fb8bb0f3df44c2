import Foundation
import Tracking
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The inspector's listening socket on 127.0.0.1 and the one thread that accepts on it.
///
/// The thread sleeps in `poll(2)` on the socket and on a wake pipe, with no timeout: while nobody
/// connects it costs nothing. Each connection is handed to the handler on a queue of its own;
/// at most `maxConnections` are open at once (streams included), the others get the overflow
/// answer and are closed at once. ``stop()`` wakes the thread through the pipe, waits for it to
/// close the socket (so the port is free when it returns) and shuts every open connection down.
///
/// Each connection runs on a serial queue of its own: such a queue targets libdispatch's
/// overcommitting pool, so a client slow to send its head (read for up to 5 s) never keeps
/// another connection waiting for a thread (a shared concurrent queue would not promise that).
final class InspectorListener: Sendable {
    /// The port it listens on.
    let port: UInt16
    private let descriptor: Int32
    private let wakeRead: Int32
    private let wakeWrite: Int32
    private let maxConnections: Int
    private let state = LockedValue(State())

    /// What the accept thread and the connections share.
    private struct State {
        var started = false
        var stopped = false
        var acceptExited = false
        var open: Set<Int32> = []
        var failure: String?
    }

    /// What the accept thread does after `accept(2)` failed.
    enum AcceptRecovery: Equatable {
        /// Accept again at once (interrupted, or the connection failed before it was taken).
        case retry
        /// Out of descriptors or memory: the socket stays readable, so wait 100 ms, then retry.
        case pause
        /// The socket is broken: stop accepting (``InspectorListener/failure`` says why).
        case fail
    }


    /// Opens the socket; nothing is accepted before ``start(overflow:_:)``.
    /// - Throws: ``InspectorError`` when the port is taken or a socket call fails.
    init(port: UInt16, maxConnections: Int) throws(InspectorError) {
        guard let wake = InspectorSocket.makeWakePipe() else { throw .cannotListen(call: "pipe", port: port, errno: errno) }
        do {
            (descriptor, self.port) = try InspectorSocket.listen(port: port)
        } catch {
            InspectorSocket.close(wake.read)
            InspectorSocket.close(wake.write)
            throw error
        }
        wakeRead = wake.read
        wakeWrite = wake.write
        self.maxConnections = maxConnections
    }

    /// Starts the accept thread. `handler` gets each connection and returns whether it keeps it
    /// open (a stream, closed later through ``finish(_:)``); otherwise it is closed on return.
    /// - Parameter overflow: written to a connection refused because too many are open.
    func start(overflow: [UInt8], _ handler: @escaping @Sendable (Int32) -> Bool) {
        let go = state.withLock { state in
            defer { state.started = true }
            return !state.started && !state.stopped
        }
        guard go else { return }
        let thread = Thread { [self] in acceptLoop(overflow: overflow, handler: handler) }
        thread.name = "InspectorServer.accept"
        thread.start()
    }

    /// Whether ``stop()`` was called.
    var isStopped: Bool { state.withLock { $0.stopped } }

    /// Why the accept thread stopped accepting on its own (the socket failed), nil while it serves.
    var failure: String? { state.withLock { $0.failure } }

    /// The address the socket is bound to, as `getsockname(2)` reports it (`127.0.0.1`).
    var boundAddress: String? {
        var address = sockaddr_in()
        var size = socklen_t(MemoryLayout<sockaddr_in>.size)
        let result = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &size) }
        }
        guard result == 0, address.sin_family == sa_family_t(AF_INET) else { return nil }
        var text = [CChar](repeating: 0, count: Int(INET_ADDRSTRLEN))
        guard inet_ntop(AF_INET, &address.sin_addr, &text, socklen_t(text.count)) != nil else { return nil }
        return String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// How many connections are open (streams included).
    var openCount: Int { state.withLock { $0.open.count } }

    /// Closes a connection the handler kept (or finished with): forgets it, then closes it.
    func finish(_ connection: Int32) {
        let known = state.withLock { $0.open.remove(connection) != nil }
        if known { InspectorSocket.close(connection) }
    }

    /// Closes the listening socket (the port is free on return) and shuts every open connection
    /// down so that whoever reads or writes it returns and closes it. Idempotent.
    func stop() {
        let found: (started: Bool, exited: Bool)? = state.withLock { state in
            if state.stopped { return nil }
            state.stopped = true
            // Under the lock: a connection leaves `open` before it is closed, so this never
            // touches a descriptor number already reused.
            for connection in state.open { InspectorSocket.shutDown(connection) }
            return (state.started, state.acceptExited)
        }
        guard let found else { return }
        guard found.started else {
            InspectorSocket.close(descriptor)
            return closeWakePipe()
        }
        // Both ends stay open until the thread is gone: the poke never hits a closed pipe.
        if !found.exited { InspectorSocket.poke(wakeWrite) }
        if state.wait(until: { $0.acceptExited }, deadline: Date().addingTimeInterval(5)) { closeWakePipe() }
    }

    /// Notes why the accept thread ends on its own.
    private func fail(_ reason: String) {
        state.withLock { $0.failure = reason }
    }

    /// What to do after `accept(2)` failed with `code`: retry when the connection failed before
    /// it was taken (Linux passes the pending network errors of a new connection on), pause when
    /// out of descriptors or memory, stop on anything else (a broken socket fails again at once).
    static func recovery(afterAcceptError code: Int32) -> AcceptRecovery {
        switch code {
        case EINTR, EAGAIN, EWOULDBLOCK, ECONNABORTED, EPROTO, ENETDOWN, ENOPROTOOPT, EHOSTDOWN,
             EHOSTUNREACH, EOPNOTSUPP, ENETUNREACH:
            .retry
        case EMFILE, ENFILE, ENOBUFS, ENOMEM:
            .pause
        default:
            .fail
        }
    }

    private func closeWakePipe() {
        InspectorSocket.close(wakeRead)
        InspectorSocket.close(wakeWrite)
    }

    private func acceptLoop(overflow: [UInt8], handler: @escaping @Sendable (Int32) -> Bool) {
        defer {
            InspectorSocket.close(descriptor)
            state.withLockWakingWaiters { $0.acceptExited = true }
        }
        var entries = [pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0),
                       pollfd(fd: wakeRead, events: Int16(POLLIN), revents: 0)]
        while !isStopped {
            entries[0].revents = 0
            entries[1].revents = 0
            let ready = poll(&entries, 2, -1)
            if ready < 0, errno == EINTR { continue }
            if ready < 0 { return fail("poll failed (errno \(errno))") }
            if entries[1].revents != 0 || isStopped { return }
            let events = entries[0].revents
            // An error or hang-up on the socket would come back at once forever: stop instead of spinning.
            if events & Int16(POLLERR | POLLNVAL | POLLHUP) != 0 || events & Int16(POLLIN) == 0 {
                return fail("the listening socket failed (poll events \(events))")
            }
            let connection = accept(descriptor, nil, nil)
            guard connection >= 0 else {
                let code = errno
                switch Self.recovery(afterAcceptError: code) {
                case .retry: continue
                case .pause: usleep(100_000); continue
                case .fail: return fail("accept failed (errno \(code))")
                }
            }
            InspectorSocket.configure(connection)
            let admitted: Bool? = state.withLock { state in
                if state.stopped { return nil }
                guard state.open.count < maxConnections else { return false }
                state.open.insert(connection)
                return true
            }
            switch admitted {
            case true?:
                DispatchQueue(label: "InspectorServer.connection", qos: .utility).async { [self] in
                    if !handler(connection) { finish(connection) }
                }
            case false?:
                _ = InspectorSocket.sendAll(connection, overflow)
                InspectorSocket.close(connection)
            case nil:
                InspectorSocket.close(connection)
                return
            }
        }
    }
}
