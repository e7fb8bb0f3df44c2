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

/// What the inspector costs: nothing polls while no stream is open, and connections are bounded.
@Suite("Inspector: idle when unwatched, bounded connections", .serialized, .runsAlone)
struct InspectorIdleTests {
    @Test("The poller runs only while a stream is open, and stops once its client leaves")
    func pollsOnlyWhileStreaming() async throws {
        let directory = try TemporaryDirectory(prefix: "inspector-idle")
        let (dispatcher, server) = try makeInspectedDispatcher(directory)
        defer { server.stop() }
        _ = try InspectorTestClient.get("/api/events", port: server.port)
        _ = try InspectorTestClient.get("/api/health", port: server.port)
        #expect(!server.isPolling, "API requests started the poller")
        var stream: InspectorTestStream? = try InspectorTestStream(port: server.port)
        #expect(stream?.next()?.event == "events")
        #expect(server.isPolling)
        stream = nil // closes the client's socket
        let stopped = await eventually(timeout: 4) { !server.isPolling && server.openConnections == 0 }
        #expect(stopped, "the poller kept running after the last stream closed")
        #expect(stream == nil)
        await dispatcher.close()
    }

    @Test("At most 32 connections: the 33rd is answered 503 at once; they are served again once some close")
    func connectionLimit() throws {
        let directory = try TemporaryDirectory(prefix: "inspector-limit")
        let (_, server) = try makeInspectedDispatcher(directory)
        defer { server.stop() }
        // Connections that send nothing hold their slot (each is read for up to 5 s).
        var idle: [Int32] = []
        defer { idle.forEach { close($0) } }
        for _ in 0..<InspectorServer.maxConnections {
            idle.append(try InspectorTestClient.connect(to: "127.0.0.1", port: server.port).get())
        }
        let deadline = Date().addingTimeInterval(2)
        while server.openConnections < InspectorServer.maxConnections, Date() < deadline { usleep(10_000) }
        #expect(server.openConnections == InspectorServer.maxConnections)
        let started = Date()
        let refused = try InspectorTestClient.get("/api/health", port: server.port)
        #expect(refused.status == 503)
        #expect(Date().timeIntervalSince(started) < 1)
        idle.forEach { close($0) }
        idle = []
        let freed = Date().addingTimeInterval(2)
        while server.openConnections > 0, Date() < freed { usleep(10_000) }
        #expect(try InspectorTestClient.get("/api/health", port: server.port).status == 200)
    }
}
