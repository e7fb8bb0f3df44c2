@testable import Dispatcher
@testable import DispatcherTestKit
import Foundation
import Testing
import TestSupport
import Tracking

@Suite("Delivery through a real HTTP collector on 127.0.0.1", .serialized, .runsAlone)
struct LoopbackDeliveryTests {
    @Test("URLSessionTransport: answers, headers, dropped connections and timeouts")
    func transport() async throws {
        let server = try LoopbackHTTPServer(lifetime: 20)
        defer { server.stop() }
        server.enqueue(.respond(status: 429, headers: ["Retry-After": "3"], body: Data("slow down".utf8)), .drop,
                       .stall(seconds: 5))
        let transport = URLSessionTransport(requestTimeout: 1)
        let url = server.baseURL.appendingPathComponent("v1/batch")
        let request = HTTPRequest(url: url, headers: ["Content-Type": "application/json", "X-Test": "1"],
                                  body: Data(#"{"hello":"world"}"#.utf8))

        let limited = try await transport.send(request)
        #expect(limited.statusCode == 429)
        #expect(limited.header("retry-after") == "3")
        #expect(String(decoding: limited.body, as: UTF8.self) == "slow down")
        let recorded = try #require(server.requests.first)
        #expect(recorded.method == "POST" && recorded.path == "/v1/batch")
        #expect(recorded.headers["x-test"] == "1")
        #expect(recorded.headers["cookie"] == nil)
        #expect(String(decoding: recorded.body, as: UTF8.self) == #"{"hello":"world"}"#)

        await #expect(throws: TransportError.self) { try await transport.send(request) }
        let started = Date()
        await #expect(throws: TransportError.timedOut(seconds: 1)) { try await transport.send(request) }
        #expect(Date().timeIntervalSince(started) < 4)
        let ok = try await transport.send(request)
        #expect(ok.statusCode == 200)
    }

    @Test("500, 429 + Retry-After, 413 to a single event, 400, a dropped connection and a stall, then 200: nothing lost")
    func faultyCollector() async throws {
        let server = try LoopbackHTTPServer(lifetime: 30)
        defer { server.stop() }
        server.enqueue(
            .respond(status: 500), .respond(status: 429, headers: ["Retry-After": "1"]),
            .respond(status: 413), .respond(status: 413), .respond(status: 413), .respond(status: 413), .ok,
            // A 400 to the gzip body and to its plain resend.
            .respond(status: 400, body: Data(#"{"error":"bad"}"#.utf8)), .respond(status: 400, body: Data(#"{"error":"bad"}"#.utf8)),
            .drop, .stall(seconds: 4))
        let events = DeliveryFixtures.encodedEvents(40)
        let queue = InMemoryDeliveryQueue(events: events)
        let log = AttemptLog()
        let destination = try SegmentDestination(endpoint: server.baseURL, writeKey: "test-key",
                                                 transport: URLSessionTransport(requestTimeout: 1))
        let worker = DeliveryWorker(
            queue: queue, destination: destination,
            configuration: DeliveryWorkerConfiguration(
                deliverySize: 8, retryPolicy: RetryPolicy(baseDelay: 0.2, maxDelay: 0.5, jitter: .none, maxAttempts: 20)),
            observer: { log.record($0) })

        let giveUp = Date().addingTimeInterval(15)
        var rounds = 0
        while Date() < giveUp, !(queue.events(.pending).isEmpty && queue.events(.inFlight).isEmpty) {
            let report = await worker.deliverAvailable(deadline: giveUp)
            rounds += 1
            if report.stopReason == .backingOff || report.stopReason == .drained {
                try await Task.sleep(nanoseconds: 50_000_000)
            }
        }

        // Every event ends acknowledged or rejected; nothing pending, nothing in flight, nothing lost.
        #expect(queue.events(.pending).isEmpty && queue.events(.inFlight).isEmpty)
        let rejected = queue.events(.rejected)
        let acknowledged = Set(queue.acknowledged)
        #expect(acknowledged.count + rejected.count == events.count)
        #expect(acknowledged.isDisjoint(with: rejected.map(\.event.id)))
        // The third batch (events 17-24) met the 413 chain: event 17 alone too large, 18 delivered,
        // 19-20 refused with 400.
        #expect(rejected.map(\.event.id) == [events[16].id, events[18].id, events[19].id])
        #expect(rejected.first?.lastError == "too large on its own: HTTP 413")
        #expect(rejected.dropFirst().allSatisfy { $0.lastError == #"HTTP 400: {"error":"bad"}"# })

        // What the collector acknowledged carries every delivered id; duplicates only as the same id.
        var answeredIDs: [String] = []
        for request in server.requests {
            guard case .respond(let status, _, _) = request.action, status == 200 else { continue }
            let batch = try #require(try DeliveryFixtures.object(request.body)["batch"] as? [[String: Any]])
            answeredIDs += batch.compactMap { $0["messageId"] as? String }
        }
        #expect(Set(answeredIDs) == Set(acknowledged.map { $0.uuidString.lowercased() }))
        #expect(server.requests.allSatisfy {
            $0.path == "/v1/batch" && $0.headers["authorization"] == "Basic " + Data("test-key:".utf8).base64EncodedString()
        })

        // One request in flight at a time, as the server saw it.
        #expect(server.maxConcurrentRequests == 1)
        // The 429 was honoured: its batch was scheduled exactly Retry-After later.
        let limited = try #require(log.attempts.first { if case .retry(_, "HTTP 429") = $0.decision { true } else { false } })
        if case .retry(let at, _) = limited.decision { #expect(at == limited.at.addingTimeInterval(1)) }
        // The dropped connection and the stall both came back as transport failures and were retried
        // (URLSession on Linux may report a dropped keep-alive connection as a timeout).
        let transportFailures = log.attempts.filter {
            if case .retry(_, let reason) = $0.decision { reason.contains("timed out") || reason.contains("network error") } else { false }
        }
        #expect(transportFailures.count >= 2)
        #expect(rounds < 200)
    }

    @Test("Snowplow and NDJSON destinations deliver through the worker too")
    func otherDestinations() async throws {
        let server = try LoopbackHTTPServer(lifetime: 20)
        defer { server.stop() }
        let events = DeliveryFixtures.encodedEvents(30)
        let queue = InMemoryDeliveryQueue(events: events)
        let snowplow = try SnowplowDestination(endpoint: server.baseURL, appID: "app",
                                               transport: URLSessionTransport(requestTimeout: 2))
        let report = await DeliveryWorker(queue: queue, destination: snowplow,
                                          configuration: DeliveryWorkerConfiguration(deliverySize: 12))
            .deliverAvailable(deadline: Date().addingTimeInterval(60))
        #expect(report.delivered == 30 && report.requests == 3)
        #expect(server.requests.allSatisfy { $0.path == "/com.snowplowanalytics.snowplow/tp2" })
        let body = try #require(server.requests.first?.body)
        #expect(try SchemaValidator.validateSelfDescribing(body) == [])

        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        let file = folder.file("outbox/events.ndjson")
        let fileQueue = InMemoryDeliveryQueue(events: events)
        let fileReport = await DeliveryWorker(queue: fileQueue, destination: NDJSONFileDestination(fileURL: file))
            .deliverAvailable(deadline: Date().addingTimeInterval(60))
        #expect(fileReport.delivered == 30)
        let lines = try String(contentsOf: file, encoding: .utf8).split(separator: "\n")
        #expect(lines.count == 30)
        #expect(try lines.map { try DeliveryFixtures.object(Data($0.utf8))["id"] as? String }
            == events.map { $0.id.uuidString.lowercased() })
    }
}
