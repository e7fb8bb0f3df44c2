@testable import Dispatcher
import Foundation
import TestSupport
import Testing
import Tracking

/// The messageIds of the requests the collector answered with 200.
private func acknowledgedIDs(_ server: LoopbackHTTPServer) -> [String] {
    server.requests.filter { $0.action == .ok }.flatMap { request -> [String] in
        guard let body = try? JSONSerialization.jsonObject(with: request.body) as? [String: Any],
              let batch = body["batch"] as? [[String: Any]] else { return [] }
        return batch.compactMap { $0["messageId"] as? String }
    }
}

/// 401, 403 and 404 say the endpoint or the write key is wrong, not the events: delivery pauses,
/// every event stays pending, and resuming delivers them once the collector accepts.
@Suite("A refused endpoint pauses delivery; rejected events can be requeued", .serialized, .runsAlone)
struct EndpointRefusedTests {
    @Test("401, 403, 404: events stay pending with no attempt counted, delivery pauses with a diagnostic, resume delivers",
          arguments: [401, 403, 404])
    func refusedEndpointPauses(_ status: Int) async throws {
        let directory = try TemporaryDirectory(prefix: "refused-\(status)")
        defer { directory.remove() }
        let server = try LoopbackHTTPServer(lifetime: 30)
        defer { server.stop() }
        server.enqueue(.respond(status: status, body: Data(#"{"error":"key secret-write-key is not valid"}"#.utf8)))
        let log = DiagnosticLog()
        let dispatcher = try makeDispatcher(directory, server: server, onDiagnostic: { log.append($0) })
        let reporter = EventReporter<Checkout>(plugins: [dispatcher])
        var sent: [String] = []
        for index in 0..<25 {
            sent += reporter.send(name: .pay, action: .tap, userData: ["index": .int(index)]).map { $0.eventID.uuidString.lowercased() }
        }
        #expect(sent.count == 25)

        let report = await dispatcher.drain(timeout: 10).report
        #expect(report.stopReason == .endpointRefused)
        #expect(report.delivered == 0 && report.rejected == 0 && report.retried == 0)
        let reason = try #require(report.lastError)
        #expect(reason.hasPrefix("HTTP \(status): "), "got: \(reason)")
        #expect(dispatcher.isPaused)
        let store = try #require(dispatcher.store)
        #expect(store.counts().pending == 25 && store.counts().rejected == 0 && store.counts().inFlight == 0)
        #expect(try store.query(StoreQuery(status: .pending)).allSatisfy { $0.attempts == 0 }, "no attempt is used up")

        // One diagnostic names the cause and the pause, never the key (nor the body echoing it).
        let messages = log.messages.filter { $0.contains("HTTP \(status)") }
        #expect(messages.count == 1, "got: \(log.messages)")
        #expect(messages.first?.contains("delivery paused until resume()") == true, "got: \(messages)")
        let encodedKey = Data("secret-write-key:".utf8).base64EncodedString()
        #expect(log.messages.allSatisfy { !$0.contains("secret-write-key") && !$0.contains(encodedKey) })

        // Paused: a flush answers with the cause without sending, new events wait.
        reporter.send(name: .view, action: .open)
        let again = await dispatcher.drain(timeout: 5).report
        #expect(again.stopReason == .endpointRefused && again.lastError == reason && again.requests == 0)
        #expect(server.requestCount == 1)
        #expect(log.messages.filter { $0.contains("HTTP \(status)") }.count == 1, "not repeated for each flush")

        // Fixed on the collector's side: resume delivers everything, nothing was lost.
        dispatcher.resume()
        #expect(!dispatcher.isPaused)
        // Settled, not merely claimed: a claimed batch leaves `pending` before the collector has it.
        #expect(await eventually(timeout: 10) { dispatcher.counters.store.pending + dispatcher.counters.store.inFlight == 0 })
        #expect(Set(acknowledgedIDs(server)).isSuperset(of: sent))
        #expect(dispatcher.counters.store.rejected == 0)
        await dispatcher.close()
    }

    @Test("400 and 422 still reject the events, without pausing", arguments: [400, 422])
    func badEventsStillReject(_ status: Int) async throws {
        let directory = try TemporaryDirectory(prefix: "rejected-\(status)")
        defer { directory.remove() }
        let server = try LoopbackHTTPServer(lifetime: 30)
        defer { server.stop() }
        // A 400 comes twice: to the gzip body and to its plain resend.
        server.enqueue(Array(repeating: .respond(status: status), count: status == 400 ? 2 : 1))
        let dispatcher = try makeDispatcher(directory, server: server)
        let reporter = EventReporter<Checkout>(plugins: [dispatcher])
        for _ in 0..<5 { reporter.send(name: .pay, action: .tap) }
        let report = await dispatcher.drain(timeout: 10).report
        #expect(report.rejected == 5 && report.stopReason == .drained && !dispatcher.isPaused)
        #expect(dispatcher.counters.store.rejected == 5)
        await dispatcher.close()
    }

    @Test("requeueRejected returns rejected events to pending with attempts reset; the next flush delivers them")
    func requeueRejected() async throws {
        let directory = try TemporaryDirectory(prefix: "requeue")
        defer { directory.remove() }
        let server = try LoopbackHTTPServer(lifetime: 30)
        defer { server.stop() }
        // A 400 to the gzip body and to its plain resend.
        server.enqueue(.respond(status: 400, body: Data(#"{"error":"bad schema"}"#.utf8)),
                       .respond(status: 400, body: Data(#"{"error":"bad schema"}"#.utf8)))
        let dispatcher = try makeDispatcher(directory, server: server)
        let reporter = EventReporter<Checkout>(plugins: [dispatcher])
        var sent: [String] = []
        for index in 0..<12 {
            sent += reporter.send(name: .pay, action: .tap, userData: ["index": .int(index)]).map { $0.eventID.uuidString.lowercased() }
        }
        let refused = await dispatcher.drain(timeout: 10).report
        #expect(refused.rejected == 12)
        let store = try #require(dispatcher.store)
        let rejectedBytes = store.counts().bytes
        #expect(store.counts().rejected == 12 && store.counts().pending == 0)

        // The requeue asks for a delivery: hold it while the store is inspected (the round
        // starts at once on the worker's own queue, and would race the inspection).
        dispatcher.pause()
        #expect(try dispatcher.requeueRejected() == 12)
        let counts = store.counts()
        #expect(counts.rejected == 0 && counts.pending == 12 && counts.bytes == rejectedBytes && counts.total == 12)
        let rows = try store.query(StoreQuery(status: .pending))
        #expect(rows.count == 12 && rows.allSatisfy { $0.attempts == 0 && $0.nextAttemptAt == nil })
        #expect(try dispatcher.requeueRejected() == 0, "nothing left to requeue")
        dispatcher.resume()

        #expect(await eventually(timeout: 10) { dispatcher.counters.store.pending == 0 })
        let delivered = await dispatcher.drain(timeout: 10).report
        #expect(delivered.stopReason == .drained)
        #expect(acknowledgedIDs(server) == sent, "delivered after the requeue, once each, in order")
        #expect(store.counts() == StoreCounts(bytes: 0))
        await dispatcher.close()
    }
}
