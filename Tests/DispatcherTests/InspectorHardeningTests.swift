@testable import Dispatcher
import Foundation
import TestSupport
import Testing
import Tracking
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The inspector's defences found missing in review: other sites' no-cors requests, repeated
/// Origin, the default port, HEAD on the stream, the accept loop's failures, Health's condition
/// entries, and a server let go of.
@Suite("Inspector hardening: cross-site requests, accept failures, conditions, lifetime", .runsAlone)
struct InspectorHardeningTests {
    @Test("Sec-Fetch-Site cross-site or same-site is 403; same-origin and none are served; two Origins are 403")
    func crossSite() throws {
        let directory = try TemporaryDirectory(prefix: "inspector-cross-site")
        let (_, server) = try makeInspectedDispatcher(directory)
        defer { server.stop() }
        let port = server.port
        let crossSite = try InspectorTestClient.get("/api/events", port: port, extra: ["Sec-Fetch-Site: cross-site"])
        #expect(crossSite.status == 403)
        #expect(crossSite.text == "cross-site request refused")
        #expect(try InspectorTestClient.get("/api/health", port: port, extra: ["Sec-Fetch-Site: same-site"]).status == 403)
        #expect(try InspectorTestClient.get("/api/events", port: port, extra: ["Sec-Fetch-Site: same-origin"]).status == 200)
        #expect(try InspectorTestClient.get("/", port: port, extra: ["Sec-Fetch-Site: none"]).status == 200)
        // A link followed from another site opens the page (no data), and nothing else.
        let navigation = ["Sec-Fetch-Site: cross-site", "Sec-Fetch-Mode: navigate", "Sec-Fetch-Dest: document"]
        #expect(try InspectorTestClient.get("/", port: port, extra: navigation).status == 200)
        #expect(try InspectorTestClient.get("/api/events", port: port, extra: navigation).status == 403)
        #expect(try InspectorTestClient.get("/", port: port, extra: ["Sec-Fetch-Site: cross-site", "Sec-Fetch-Mode: no-cors",
                                                                    "Sec-Fetch-Dest: image"]).status == 403)
        let origin = "Origin: http://127.0.0.1:\(port)"
        let twoOrigins = "GET /api/events HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\n\(origin)\r\nOrigin: http://evil.example\r\n\r\n"
        let refused = try InspectorTestClient.send(twoOrigins, port: port)
        #expect(refused.status == 403)
        #expect(refused.text == "origin not allowed")
        #expect(try InspectorTestClient.get("/api/events", port: port, extra: [origin]).status == 200)
    }

    @Test("A bare Host (and Origin) without the port is accepted on port 80 only")
    func defaultPort() throws {
        func request(host: String, origin: String? = nil) throws -> InspectorRequest {
            let lines = ["GET /api/health HTTP/1.1", "Host: \(host)"] + (origin.map { ["Origin: \($0)"] } ?? []) + ["", ""]
            return try InspectorRequest.parse(Array(lines.joined(separator: "\r\n").utf8)).get()
        }
        #expect(InspectorRouter.refusal(of: try request(host: "127.0.0.1"), port: 80) == nil)
        #expect(InspectorRouter.refusal(of: try request(host: "localhost", origin: "http://localhost"), port: 80) == nil)
        #expect(InspectorRouter.refusal(of: try request(host: "127.0.0.1:80"), port: 80) == nil)
        #expect(InspectorRouter.refusal(of: try request(host: "127.0.0.1"), port: 8080)?.status == 403)
        #expect(InspectorRouter.refusal(of: try request(host: "127.0.0.1:8080", origin: "http://127.0.0.1"), port: 8080)?.status == 403)
        #expect(InspectorRouter.refusal(of: try request(host: "evil.example"), port: 80)?.status == 403)
    }

    @Test("HEAD /api/stream answers the head alone: no retry field, nothing after the blank line")
    func headStream() throws {
        let directory = try TemporaryDirectory(prefix: "inspector-head-stream")
        let (_, server) = try makeInspectedDispatcher(directory)
        defer { server.stop() }
        let head = try InspectorTestClient.get("/api/stream", port: server.port, method: "HEAD")
        #expect(head.status == 200)
        #expect(head.headers["content-type"] == "text/event-stream; charset=utf-8")
        #expect(head.body.isEmpty)
        #expect(!head.raw.contains("retry:"))
    }

    @Test("A condition whose count changes keeps one Health entry with the latest text; gone and back, a new one")
    func conditionUpdatedInPlace() {
        let history = InspectorHistory()
        func losses(_ count: Int) -> InspectorCondition {
            InspectorCondition("journal-losses", area: .storage, message: "the journal lost \(count) records")
        }
        let paused = InspectorCondition("delivery-paused", area: .delivery, message: "delivery paused: refused")
        _ = history.diagnostics(noting: [losses(1)])
        _ = history.diagnostics(noting: [losses(2), paused])
        let noted = history.diagnostics(noting: [losses(3), paused])
        #expect(noted.map(\.message) == ["the journal lost 3 records", "delivery paused: refused"])
        _ = history.diagnostics(noting: [paused])
        let back = history.diagnostics(noting: [losses(4), paused])
        #expect(back.map(\.message) == ["the journal lost 3 records", "delivery paused: refused", "the journal lost 4 records"])
    }

    @Test("accept errors: a broken socket ends the loop, a failed connection retries, no descriptors pauses")
    func acceptRecovery() {
        for code in [EBADF, EINVAL, ENOTSOCK, EFAULT] {
            #expect(InspectorListener.recovery(afterAcceptError: code) == .fail)
        }
        for code in [EINTR, EAGAIN, EWOULDBLOCK, ECONNABORTED, EPROTO] {
            #expect(InspectorListener.recovery(afterAcceptError: code) == .retry)
        }
        for code in [EMFILE, ENFILE, ENOBUFS, ENOMEM] {
            #expect(InspectorListener.recovery(afterAcceptError: code) == .pause)
        }
    }

    @Test("A listening socket shut down under the server: the accept loop ends with a failure instead of spinning")
    func brokenSocketEndsLoop() throws {
        let directory = try TemporaryDirectory(prefix: "inspector-broken-socket")
        let (_, server) = try makeInspectedDispatcher(directory)
        defer { server.stop() }
        let descriptor = try #require(Self.listeningDescriptor(port: server.port))
        // Linux takes a listening socket out of LISTEN; other systems may refuse (nothing to test there).
        guard shutdown(descriptor, Int32(SHUT_RDWR)) == 0 else { return }
        let deadline = Date().addingTimeInterval(2)
        while server.failure == nil, deadline.timeIntervalSinceNow > 0 { usleep(10_000) }
        #expect(server.failure != nil, "the accept loop did not end on a broken socket")
    }

    @Test("A server let go of without stop() frees its port")
    func releasedServerFreesPort() throws {
        let directory = try TemporaryDirectory(prefix: "inspector-release")
        let dispatcher = try Dispatcher(configuration: DispatcherConfiguration(storePath: directory.file("store.sqlite").path))
        let port: UInt16 = try {
            let server = try InspectorServer.start(dispatcher: dispatcher)
            #expect(try InspectorTestClient.get("/api/health", port: server.port).status == 200)
            return server.port
        }()
        let again = try InspectorServer.start(dispatcher: dispatcher, port: port)
        defer { again.stop() }
        #expect(try InspectorTestClient.get("/api/health", port: port).status == 200)
    }

    /// This process's descriptor listening on 127.0.0.1:`port`.
    static func listeningDescriptor(port: UInt16) -> Int32? {
        for descriptor in Int32(3)..<Int32(4_096) {
            var address = sockaddr_in()
            var size = socklen_t(MemoryLayout<sockaddr_in>.size)
            let named = withUnsafeMutablePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &size) }
            }
            guard named == 0, address.sin_family == sa_family_t(AF_INET), UInt16(bigEndian: address.sin_port) == port else { continue }
            var listening: Int32 = 0
            var length = socklen_t(MemoryLayout<Int32>.size)
            if getsockopt(descriptor, SOL_SOCKET, SO_ACCEPTCONN, &listening, &length) == 0, listening != 0 { return descriptor }
        }
        return nil
    }
}
