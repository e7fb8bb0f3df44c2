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

/// A Dispatcher (no destination) on a fresh store, and an inspector serving it.
func makeInspectedDispatcher(_ directory: TemporaryDirectory) throws -> (Dispatcher, InspectorServer) {
    let dispatcher = try Dispatcher(configuration: DispatcherConfiguration(storePath: directory.file("store.sqlite").path))
    return (dispatcher, try InspectorServer.start(dispatcher: dispatcher))
}

/// The HTTP side of the inspector: where it listens, which requests it refuses, its headers.
@Suite("Inspector server: loopback only, Host and Origin checks, methods, limits, stop", .runsAlone)
struct InspectorServerTests {
    @Test("Listens on 127.0.0.1 only (getsockname), answers there")
    func bindsLoopback() throws {
        let directory = try TemporaryDirectory(prefix: "inspector-bind")
        let (_, server) = try makeInspectedDispatcher(directory)
        defer { server.stop() }
        #expect(server.boundAddress == "127.0.0.1")
        #expect(server.port != 0)
        #expect(server.url.absoluteString == "http://127.0.0.1:\(server.port)/")
        #expect(try InspectorTestClient.get("/api/health", port: server.port).status == 200)
    }

    @Test("Host must be 127.0.0.1:PORT or localhost:PORT; anything else is 403")
    func hostCheck() throws {
        let directory = try TemporaryDirectory(prefix: "inspector-host")
        let (_, server) = try makeInspectedDispatcher(directory)
        defer { server.stop() }
        let port = server.port
        let evil = try InspectorTestClient.get("/api/health", port: port, host: "evil.example:\(port)")
        #expect(evil.status == 403)
        #expect(evil.text == "host not allowed")
        #expect(try InspectorTestClient.get("/", port: port, host: "evil.example:\(port)").status == 403)
        #expect(try InspectorTestClient.get("/api/health", port: port, host: "127.0.0.1:\(port &+ 1)").status == 403)
        #expect(try InspectorTestClient.get("/api/health", port: port, host: "127.0.0.1").status == 403)
        let twoHosts = "GET /api/health HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nHost: evil.example\r\n\r\n"
        #expect(try InspectorTestClient.send(twoHosts, port: port).status == 403)
        #expect(try InspectorTestClient.send("GET /api/health HTTP/1.1\r\n\r\n", port: port).status == 403)
        #expect(try InspectorTestClient.get("/api/health", port: port, host: "127.0.0.1:\(port)").status == 200)
        #expect(try InspectorTestClient.get("/api/health", port: port, host: "LocalHost:\(port)").status == 200)
    }

    @Test("An Origin other than the inspector's own is 403")
    func originCheck() throws {
        let directory = try TemporaryDirectory(prefix: "inspector-origin")
        let (_, server) = try makeInspectedDispatcher(directory)
        defer { server.stop() }
        let port = server.port
        let evil = try InspectorTestClient.get("/api/events", port: port, extra: ["Origin: http://evil.example"])
        #expect(evil.status == 403)
        #expect(evil.text == "origin not allowed")
        #expect(try InspectorTestClient.get("/api/events", port: port, extra: ["Origin: null"]).status == 403)
        #expect(try InspectorTestClient.get("/api/events", port: port, extra: ["Origin: https://127.0.0.1:\(port)"]).status == 403)
        #expect(try InspectorTestClient.get("/api/events", port: port, extra: ["Origin: http://127.0.0.1:\(port)"]).status == 200)
        #expect(try InspectorTestClient.get("/api/events", port: port, extra: ["Origin: http://localhost:\(port)"]).status == 200)
    }

    @Test("Only GET and HEAD: POST is 405; HEAD has the head only")
    func methods() throws {
        let directory = try TemporaryDirectory(prefix: "inspector-methods")
        let (_, server) = try makeInspectedDispatcher(directory)
        defer { server.stop() }
        let post = try InspectorTestClient.get("/api/events", port: server.port, method: "POST", extra: ["Content-Length: 0"])
        #expect(post.status == 405)
        #expect(try InspectorTestClient.get("/api/events", port: server.port, method: "DELETE").status == 405)
        let head = try InspectorTestClient.get("/api/health", port: server.port, method: "HEAD")
        #expect(head.status == 200)
        #expect(head.body.isEmpty)
        #expect(Int(head.headers["content-length"] ?? "") ?? 0 > 0)
    }

    @Test("A request head over 8 KiB is refused with 431; a malformed one with 400; unknown paths 404")
    func limits() throws {
        let directory = try TemporaryDirectory(prefix: "inspector-limits")
        let (_, server) = try makeInspectedDispatcher(directory)
        defer { server.stop() }
        let port = server.port
        let big = "GET /api/health HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nX-Filler: \(String(repeating: "a", count: 9_000))\r\n\r\n"
        let refused = try InspectorTestClient.send(big, port: port)
        #expect(refused.status == 431 || refused.status == 400)
        #expect(try InspectorTestClient.send("NONSENSE\r\n\r\n", port: port).status == 400)
        #expect(try InspectorTestClient.get("/nowhere", port: port).status == 404)
        #expect(try InspectorTestClient.get("/api/events/not-a-uuid", port: port).status == 404)
        #expect(try InspectorTestClient.get("/api/events?limit=abc", port: port).status == 400)
    }

    @Test("Every answer carries the security headers; the page gets a nonce'd policy")
    func securityHeaders() throws {
        let directory = try TemporaryDirectory(prefix: "inspector-headers")
        let (_, server) = try makeInspectedDispatcher(directory)
        defer { server.stop() }
        for response in [try InspectorTestClient.get("/", port: server.port),
                         try InspectorTestClient.get("/api/events", port: server.port),
                         try InspectorTestClient.get("/api/health", port: server.port, host: "evil.example")] {
            let policy = try #require(response.headers["content-security-policy"])
            #expect(policy.hasPrefix("default-src 'none'; script-src 'nonce-"))
            #expect(policy.contains("frame-ancestors 'none'"))
            #expect(response.headers["x-content-type-options"] == "nosniff")
            #expect(response.headers["x-frame-options"] == "DENY")
            #expect(response.headers["referrer-policy"] == "no-referrer")
            #expect(response.headers["cache-control"] == "no-store")
        }
        let page = try InspectorTestClient.get("/", port: server.port)
        #expect(page.headers["content-type"] == "text/html; charset=utf-8")
        #expect(try InspectorTestClient.get("/api/events", port: server.port).headers["content-type"] == "application/json; charset=utf-8")
    }

    @Test("stop() closes the port at once (another server takes it); a taken port is a clear error")
    func stopFreesPort() throws {
        let directory = try TemporaryDirectory(prefix: "inspector-stop")
        let (dispatcher, server) = try makeInspectedDispatcher(directory)
        let port = server.port
        do {
            _ = try InspectorServer.start(dispatcher: dispatcher, port: port)
            Issue.record("a second server listened on the same port")
        } catch let error as InspectorError {
            #expect(error == .portInUse(port: port))
            #expect(error.description.contains("\(port)"))
            #expect(error.description.contains("in use"))
        }
        let stream = try InspectorTestStream(port: port)
        #expect(stream.next()?.event == "events")
        server.stop()
        server.stop()
        #expect(stream.closes(within: 2), "the stream stayed open after stop()")
        if case .success(let descriptor) = InspectorTestClient.connect(to: "127.0.0.1", port: port) {
            close(descriptor)
            Issue.record("a connection was accepted after stop()")
        }
        let again = try InspectorServer.start(dispatcher: dispatcher, port: port)
        defer { again.stop() }
        #expect(try InspectorTestClient.get("/api/health", port: port).status == 200)
    }

    @Test("isWatched: false while nobody looked, true after an API request and while a stream is open")
    func watched() throws {
        let directory = try TemporaryDirectory(prefix: "inspector-watched")
        let (_, server) = try makeInspectedDispatcher(directory)
        defer { server.stop() }
        #expect(!server.isWatched)
        _ = try InspectorTestClient.get("/", port: server.port)
        #expect(!server.isWatched, "the page alone is not an API request")
        _ = try InspectorTestClient.get("/api/health", port: server.port)
        #expect(server.isWatched)
        let stream = try InspectorTestStream(port: server.port)
        #expect(stream.next()?.event == "events")
        #expect(server.isWatched)
    }

    @Test("The JSON rule: <, >, &, U+2028 and U+2029 become \\u escapes, line breaks spaces")
    func jsonRule() throws {
        var writer = JSONWriter()
        writer.string("</script>&\u{2028}\u{2029}é")
        let safe = String(decoding: InspectorJSON.safe(writer.bytes + Array("\n".utf8)), as: UTF8.self)
        #expect(safe == "\"\\u003c/script\\u003e\\u0026\\u2028\\u2029é\" ")
        let decoded = try JSONSerialization.jsonObject(with: Data(safe.utf8), options: .fragmentsAllowed) as? String
        #expect(decoded == "</script>&\u{2028}\u{2029}é")
    }
}
