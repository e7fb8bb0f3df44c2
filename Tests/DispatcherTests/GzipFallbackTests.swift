@testable import Dispatcher
import Foundation
import Testing
import TestSupport
import Tracking

/// The messageIds of the requests `server` accepted (answered 2xx), repeats included.
private func acceptedMessageIDs(_ server: LoopbackHTTPServer) -> [String] {
    server.requests.filter { request in
        if case .respond(let status, _, _) = request.action { return (200..<300).contains(status) }
        return false
    }.flatMap { request -> [String] in
        guard let body = try? JSONSerialization.jsonObject(with: request.body) as? [String: Any],
              let batch = body["batch"] as? [[String: Any]] else { return [] }
        return batch.compactMap { $0["messageId"] as? String }
    }
}

/// The `Content-Encoding` of every request `server` received, in order ("plain" when none).
private func encodings(_ server: LoopbackHTTPServer) -> [String] {
    server.requests.map { $0.headers["content-encoding"] ?? "plain" }
}

@Suite("A collector that refuses gzip: plain at once, no event lost, remembered across restarts", .serialized, .runsAlone)
struct GzipFallbackTests {
    @Test("refused with 415, or with 400 while plain is accepted", arguments: [415, 400])
    func refusalFallsBackAndIsRemembered(status: Int) async throws {
        let directory = try TemporaryDirectory(prefix: "gzip-fallback-\(status)")
        defer { directory.remove() }
        let server = try LoopbackHTTPServer(lifetime: 60, gzipAction: .respond(status: status, body: Data(#"{"error":"cannot read"}"#.utf8)))
        defer { server.stop() }

        var dispatcher = try makeDispatcher(directory, server: server)
        var reporter = EventReporter<Checkout>(plugins: [dispatcher])
        for _ in 0..<20 { reporter.send(name: .pay, action: .tap) }
        let first = await dispatcher.drain(timeout: 10).report
        #expect(first.delivered == 20 && first.rejected == 0 && first.retried == 0, "\(first)")
        #expect(encodings(server) == ["gzip", "plain"])

        // The next request to that endpoint goes plain directly.
        for _ in 0..<5 { reporter.send(name: .view, action: .open) }
        let second = await dispatcher.drain(timeout: 10).report
        #expect(second.delivered == 5 && second.rejected == 0 && second.retried == 0, "\(second)")
        #expect(encodings(server) == ["gzip", "plain", "plain"])
        await dispatcher.close()

        // Reopened on the same store and endpoint: still plain.
        dispatcher = try makeDispatcher(directory, server: server)
        reporter = EventReporter<Checkout>(plugins: [dispatcher])
        for _ in 0..<5 { reporter.send(name: .pay, action: .open) }
        let third = await dispatcher.drain(timeout: 10).report
        #expect(third.delivered == 5 && third.rejected == 0, "\(third)")
        #expect(encodings(server) == ["gzip", "plain", "plain", "plain"])
        #expect(dispatcher.counters.store.pending == 0 && dispatcher.counters.store.inFlight == 0)
        await dispatcher.close()

        // Every event delivered, once.
        let accepted = acceptedMessageIDs(server)
        #expect(accepted.count == 30 && Set(accepted).count == 30)

        // Another endpoint on the same store starts again from the destination's setting.
        let other = try LoopbackHTTPServer(lifetime: 60)
        defer { other.stop() }
        dispatcher = try makeDispatcher(directory, server: other)
        EventReporter<Checkout>(plugins: [dispatcher]).send(name: .pay, action: .tap)
        #expect(await dispatcher.drain(timeout: 10).report.delivered == 1)
        #expect(encodings(other) == ["gzip"])
        await dispatcher.close()
    }

    @Test("a 400 to gzip and to plain is an ordinary rejection, and gzip is not given up")
    func refusedBothWaysIsARejection() async throws {
        let directory = try TemporaryDirectory(prefix: "gzip-fallback-both")
        defer { directory.remove() }
        let refusal = LoopbackHTTPServer.Action.respond(status: 400, body: Data(#"{"error":"bad schema"}"#.utf8))
        let server = try LoopbackHTTPServer(defaultAction: refusal, lifetime: 60, gzipAction: refusal)
        defer { server.stop() }
        let dispatcher = try makeDispatcher(directory, server: server)
        let reporter = EventReporter<Checkout>(plugins: [dispatcher])
        for _ in 0..<3 { reporter.send(name: .pay, action: .tap) }
        let report = await dispatcher.drain(timeout: 10).report
        #expect(report.rejected == 3 && report.delivered == 0, "\(report)")
        #expect(dispatcher.counters.store.rejected == 3)
        #expect(encodings(server) == ["gzip", "plain"])

        reporter.send(name: .view, action: .open)
        #expect(await dispatcher.drain(timeout: 10).report.rejected == 1)
        #expect(encodings(server) == ["gzip", "plain", "gzip", "plain"])
        await dispatcher.close()
    }
}
