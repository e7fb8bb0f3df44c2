@testable import Dispatcher
import Foundation
import Testing
import TestSupport

@Suite("The loopback test collector itself", .runsAlone)
struct LoopbackHTTPServerTests {
    @Test("keep-alive and Connection: close both work; scripted answers come in order; requests are recorded")
    func connectionHandling() async throws {
        let server = try LoopbackHTTPServer(lifetime: 20)
        defer { server.stop() }
        #expect(server.port > 0)
        server.enqueue(.respond(status: 201, headers: ["X-Answer": "first"]), .respond(status: 503))
        let transport = URLSessionTransport(requestTimeout: 2)
        let url = server.baseURL.appendingPathComponent("collect")
        let first = try await transport.send(HTTPRequest(url: url, body: Data("one".utf8)))
        let second = try await transport.send(HTTPRequest(url: url, headers: ["Connection": "close"], body: Data("two".utf8)))
        let third = try await transport.send(HTTPRequest(url: url, body: Data(repeating: 0x41, count: 300_000)))
        #expect([first.statusCode, second.statusCode, third.statusCode] == [Int]([201, 503, 200]))
        #expect(first.header("x-answer") == "first")
        let requests = server.requests
        #expect(requests.count == 3)
        #expect(server.requestCount == 3)
        #expect(requests.map { String(decoding: $0.body.prefix(3), as: UTF8.self) } == ["one", "two", "AAA"])
        #expect(requests[1].headers["connection"] == "close")
        #expect(requests[2].bodyLength == 300_000)
        #expect(server.receivedBodyBytes == 300_006)
        #expect(server.maxConcurrentRequests == 1)
    }

    @Test("a stopped server refuses connections")
    func stop() async throws {
        let server = try LoopbackHTTPServer(lifetime: 20)
        server.stop()
        try await Task.sleep(nanoseconds: 300_000_000)
        let transport = URLSessionTransport(requestTimeout: 2)
        await #expect(throws: TransportError.self) {
            try await transport.send(HTTPRequest(url: server.baseURL.appendingPathComponent("x")))
        }
    }
}
