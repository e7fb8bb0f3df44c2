@testable import Dispatcher
import Foundation
import Testing
import TestSupport
import Tracking

/// A Dispatcher delivering to a real collector on 127.0.0.1 that fails in every way it can.
@Suite("Reliability: FaultyCollector", .serialized, .runsAlone)
struct FaultyCollectorTests {
    @Test("500, 503, 429 + Retry-After, 413, a dropped connection and a stall, then 200s: every event arrives, acknowledged once")
    func everythingArrivesThroughFaults() async throws {
        let directory = try TemporaryDirectory(prefix: "reliability-faulty")
        defer { directory.remove() }
        let server = try LoopbackHTTPServer(lifetime: 40)
        defer { server.stop() }
        server.enqueue(
            .respond(status: 500), .respond(status: 503, body: Data("busy".utf8)),
            .respond(status: 429, headers: ["Retry-After": "1"]), .respond(status: 413), .drop,
            .stall(seconds: 3), .respond(status: 500), .respond(status: 413), .respond(status: 503))
        let destination = try SegmentDestination(endpoint: server.baseURL, writeKey: "reliability-key",
                                                 transport: URLSessionTransport(requestTimeout: 1))
        let dispatcher = try Dispatcher(configuration: DispatcherConfiguration(
            storePath: directory.file("store.sqlite").path, destination: destination,
            batch: BatchConfiguration(deliverySize: 50, flushInterval: 0),
            retryPolicy: RetryPolicy(baseDelay: 0.05, maxDelay: 0.5, maxAttempts: 50)))
        let reporter = EventReporter<Probe>(plugins: [dispatcher])

        var sent: [String: Int] = [:]
        for index in 0..<300 {
            let receipts = reporter.send(name: .tap, action: .open, userData: ["index": .int(index), "label": "event \(index)"])
            let receipt = try #require(receipts.first)
            sent[receipt.eventID.uuidString.lowercased()] = index
        }
        let settled = await dispatcher.flushUntilSettled(timeout: 20)
        let counters = dispatcher.counters
        await dispatcher.close()

        #expect(settled, "still pending after 20 s: \(counters.store)")
        #expect(counters.store.pending == 0 && counters.store.inFlight == 0)
        #expect(counters.retried > 0, "no retry was counted")
        #expect(counters.rejected == 0 && counters.store.rejected == 0)
        #expect(counters.delivered == 300)

        let requests = try SegmentCapture.requests(server)
        let actions = server.requests.map(\.action)
        #expect(requests.contains { $0.status == 429 } && requests.contains { $0.status == 413 } && actions.contains(.drop)
                    && actions.contains(.stall(seconds: 3)), "the script was not played: \(requests.map(\.status))")
        // Every id reached the collector and was acknowledged exactly once.
        var acknowledged: [String: Int] = [:]
        for request in requests where request.acknowledged {
            for message in request.messages { acknowledged[message.messageId, default: 0] += 1 }
        }
        let missing = sent.keys.filter { acknowledged[$0] == nil }
        #expect(missing.isEmpty, "\(missing.count) events never acknowledged, e.g. \(missing.prefix(3))")
        let twice = acknowledged.filter { $0.value > 1 }
        #expect(twice.isEmpty, "\(twice.count) events acknowledged more than once")
        // The only duplicates are repeats of one event under its own messageId, with equal content.
        var seen: [String: SegmentMessage] = [:]
        for message in requests.flatMap(\.messages) {
            #expect(sent[message.messageId] != nil, "unknown messageId \(message.messageId)")
            if let earlier = seen[message.messageId] {
                #expect(earlier.event == message.event && earlier.properties == message.properties,
                        "messageId \(message.messageId) carried different content")
            }
            seen[message.messageId] = message
            #expect(message.properties["index"] == sent[message.messageId].map { .int($0) })
        }
        // Retry-After was honoured: an event answered 429 was not tried again for a second, and
        // every event's timeline ends delivered.
        let timelines = dispatcher.timeline.all()
        var waits: [TimeInterval] = []
        for steps in timelines.values {
            let attempts = steps.filter { $0.kind == .attempt }
            for (index, step) in attempts.enumerated() where (step.detail ?? "").contains("HTTP 429") && index + 1 < attempts.count {
                waits.append(attempts[index + 1].at.timeIntervalSince(step.at))
            }
        }
        #expect(!waits.isEmpty && waits.allSatisfy { $0 >= 0.95 }, "waits after 429: \(waits.prefix(5))")
        let undelivered = sent.keys.filter { key in
            guard let id = UUID(uuidString: key) else { return true }
            return timelines[id]?.last?.kind != .delivered
        }
        #expect(undelivered.isEmpty, "\(undelivered.count) timelines do not end delivered")
        // A 413 split its batch: the next request carried at most half of it.
        let tooLarge = requests.enumerated().filter { $0.element.status == 413 && $0.element.messages.count > 1 }
        #expect(!tooLarge.isEmpty, "no batch of several events met a 413")
        for (position, request) in tooLarge {
            let ids = Set(request.messages.map(\.messageId))
            let next = try #require(requests.dropFirst(position + 1).first)
            #expect(Set(next.messages.map(\.messageId)).isSubset(of: ids) && next.messages.count <= (ids.count + 1) / 2,
                    "after a 413 of \(ids.count) events the next request carried \(next.messages.count)")
        }
    }

    @Test("400 rejects: the rows are kept, counted, visible, never delivered, and deletable")
    func rejectedEventsAreKept() async throws {
        let directory = try TemporaryDirectory(prefix: "reliability-rejected")
        defer { directory.remove() }
        let server = try LoopbackHTTPServer(lifetime: 30)
        defer { server.stop() }
        // A 400 to the gzip body and to its plain resend.
        server.enqueue(.respond(status: 400, body: Data(#"{"error":"bad schema"}"#.utf8)),
                       .respond(status: 400, body: Data(#"{"error":"bad schema"}"#.utf8)))
        let destination = try SegmentDestination(endpoint: server.baseURL, writeKey: "reliability-key",
                                                 transport: URLSessionTransport(requestTimeout: 2))
        let dispatcher = try Dispatcher(configuration: DispatcherConfiguration(
            storePath: directory.file("store.sqlite").path, destination: destination,
            batch: BatchConfiguration(deliverySize: 10, flushInterval: 0),
            retryPolicy: RetryPolicy(baseDelay: 0.05, maxDelay: 0.5)))
        let reporter = EventReporter<Probe>(plugins: [dispatcher])
        var sent = Set<UUID>()
        for index in 0..<25 {
            sent.formUnion(reporter.send(name: .purchase, action: .other, userData: ["index": .int(index)]).map(\.eventID))
        }
        #expect(sent.count == 25)
        let settled = await dispatcher.flushUntilSettled(timeout: 15)
        #expect(settled)

        let requests = try SegmentCapture.requests(server)
        let refusedRequest = try #require(requests.first)
        #expect(refusedRequest.status == 400)
        let refused = Set(refusedRequest.messages.compactMap { UUID(uuidString: $0.messageId) })
        #expect(!refused.isEmpty && refused.isSubset(of: sent))
        let delivered = Set(requests.filter(\.acknowledged).flatMap(\.messages).compactMap { UUID(uuidString: $0.messageId) })
        #expect(delivered.isDisjoint(with: refused), "a rejected event was delivered")
        #expect(delivered.union(refused) == sent, "an event is neither delivered nor rejected")

        let store = try #require(dispatcher.store)
        #expect(store.counts().rejected == refused.count)
        #expect(dispatcher.counters.rejected == refused.count)
        let records = try dispatcher.records(StoreQuery(status: .rejected))
        #expect(Set(records.map(\.id)) == refused)
        #expect(records.allSatisfy { $0.status == .rejected && ($0.lastError ?? "").contains("HTTP 400") },
                "reasons: \(records.map { $0.lastError ?? "nil" })")

        // Kept across more flushes: a rejected event is never retried.
        let before = server.requestCount
        _ = await dispatcher.drain(timeout: 5).report
        #expect(server.requestCount == before)
        #expect(store.counts().rejected == refused.count)

        #expect(try dispatcher.deleteRejected() == refused.count)
        #expect(store.counts().rejected == 0 && store.counts().total == 0)
        #expect(try dispatcher.records(StoreQuery(status: .rejected)).isEmpty)
        await dispatcher.close()
    }
}
