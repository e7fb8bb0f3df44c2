@testable import Dispatcher
import Foundation
import TestSupport
import Testing
import Tracking

/// The inspector's API over a real Dispatcher (a SQLite store in a temporary folder) delivering
/// to a real loopback Segment collector.
@Suite("Inspector API over a live Dispatcher and a Segment collector", .serialized, .runsAlone)
struct InspectorEventsTests {
    static let writeKey = "wk-inspector-secret-1"

    /// A Dispatcher delivering to `collector` in the Segment format, the write key in the body
    /// (the harder case: it travels inside the request body, next to the messages), keeping 100
    /// delivered events, delivering only when asked.
    static func makeDispatcher(_ directory: TemporaryDirectory, collector: LoopbackHTTPServer) throws -> Dispatcher {
        let destination = try SegmentDestination(
            endpoint: collector.baseURL, writeKey: writeKey, authentication: .body, transport: URLSessionTransport(requestTimeout: 5))
        return try Dispatcher(configuration: DispatcherConfiguration(
            storePath: directory.file("store.sqlite").path, destination: destination,
            batch: BatchConfiguration(deliverySize: 50, flushInterval: 0), strategy: [],
            retryPolicy: RetryPolicy(baseDelay: 0.05, maxDelay: 0.2), deliveredHistory: 100))
    }

    /// A fresh folder named after `prefix` (removed when released), a Dispatcher on a store in
    /// it delivering to a new loopback collector, and an inspector serving it.
    static func inspected(_ prefix: String) throws -> (TemporaryDirectory, LoopbackHTTPServer, Dispatcher, InspectorServer) {
        let directory = try TemporaryDirectory(prefix: prefix)
        let collector = try LoopbackHTTPServer(lifetime: 30)
        let dispatcher = try makeDispatcher(directory, collector: collector)
        return (directory, collector, dispatcher, try InspectorServer.start(dispatcher: dispatcher))
    }

    /// The events of a list body, by id.
    static func events(_ response: InspectorTestClient.Response) -> [String: [String: Any]] {
        let list = response.json["events"] as? [[String: Any]] ?? []
        return Dictionary(list.map { ($0["id"] as? String ?? "", $0) }, uniquingKeysWith: { first, _ in first })
    }

    @Test("/api/events lists sent events newest first, pending then delivered after a drain; text is escaped")
    func listsEvents() async throws {
        let (directory, collector, dispatcher, server) = try Self.inspected("inspector-events")
        defer { collector.stop(); server.stop(); directory.remove() }
        dispatcher.pause()
        let script = TrackedEvent(category: "<script>", name: "pay", action: "tap")
        let flagged = TrackedEvent(category: "Checkout", name: "pay", action: "open",
                                   flags: [.invalidPair(name: "pay", action: "open")])
        _ = dispatcher.send(script)
        _ = dispatcher.send(flagged)

        let pending = try InspectorTestClient.get("/api/events", port: server.port)
        #expect(pending.status == 200)
        #expect(pending.text.contains("\\u003cscript\\u003e"))
        #expect(!pending.text.contains("<script>"), "a raw < reached a JSON body")
        let listed = Self.events(pending)
        #expect(listed[EventID.text(script.id)]?["status"] as? String == "pending")
        #expect(listed[EventID.text(script.id)]?["category"] as? String == "<script>")
        #expect(listed[EventID.text(flagged.id)]?["flags"] as? [String] == ["invalid_pair(pay/open)"])
        #expect(pending.json["good"] as? Int == 1)
        #expect(pending.json["flagged"] as? Int == 1)
        #expect(pending.json["total"] as? Int == 2)
        #expect(pending.json["readOnly"] as? Bool == false)
        let order = (pending.json["events"] as? [[String: Any]] ?? []).compactMap { $0["id"] as? String }
        #expect(order == [EventID.text(flagged.id), EventID.text(script.id)], "not newest first")
        #expect(Self.events(try InspectorTestClient.get("/api/events?limit=1", port: server.port)).count == 1)

        dispatcher.resume()
        let drained = await dispatcher.drain(timeout: 10)
        #expect(drained.persisted && !drained.timedOut)
        let delivered = Self.events(try InspectorTestClient.get("/api/events", port: server.port))
        #expect(delivered[EventID.text(script.id)]?["status"] as? String == "delivered")
        #expect(delivered[EventID.text(flagged.id)]?["status"] as? String == "delivered")
        #expect(delivered[EventID.text(script.id)]?["attempts"] as? Int == 1)
        await dispatcher.close()
    }

    @Test("/api/events/<id>: timeline, flags with reasons, the Segment message as sent, receipts; never the write key")
    func detail() async throws {
        let directory = try TemporaryDirectory(prefix: "inspector-detail")
        let collector = try LoopbackHTTPServer(lifetime: 30)
        defer { collector.stop() }
        let dispatcher = try Self.makeDispatcher(directory, collector: collector)
        let event = TrackedEvent(category: "Checkout", name: "pay", action: "open", userData: ["amount": .int(12)],
                                 flags: [.invalidPair(name: "pay", action: "open")])
        let receipt = Receipt(plugin: "console", eventID: event.id, form: "Checkout pay open")
        let server = try InspectorServer.start(dispatcher: dispatcher) { id in id == event.id ? [receipt] : [] }
        defer { server.stop() }
        _ = dispatcher.send(event)
        _ = await dispatcher.drain(timeout: 10)
        // The key did travel, in the body the collector received: the inspector must not repeat it.
        #expect(collector.requests.contains { String(decoding: $0.body, as: UTF8.self).contains(Self.writeKey) })

        let response = try InspectorTestClient.get("/api/events/\(EventID.text(event.id))", port: server.port)
        #expect(response.status == 200)
        let json = response.json
        #expect((json["summary"] as? [String: Any])?["status"] as? String == "delivered")
        #expect(json["format"] as? String == "segment")
        let wire = try #require(json["wire"] as? [String: Any])
        #expect(wire["messageId"] as? String == EventID.text(event.id))
        #expect(wire["type"] as? String == "track")
        #expect(wire["event"] as? String == "Checkout pay open")
        #expect((wire["properties"] as? [String: Any])?["amount"] as? Int == 12)
        #expect((json["userData"] as? [String: Any])?["amount"] as? Int == 12)
        let timeline = json["timeline"] as? [[String: Any]] ?? []
        let steps = timeline.compactMap { $0["step"] as? String }
        #expect(steps.first == "created")
        #expect(steps.filter { $0 != "batched" } == ["created", "flagged", "persisted", "attempt", "delivered"])
        let flaggedDetail = timeline.first { $0["step"] as? String == "flagged" }?["detail"] as? String
        #expect(flaggedDetail == "invalid_pair(pay/open): the name/action pair is not one the feature declared valid")
        #expect(timeline.first { $0["step"] as? String == "attempt" }?["attempt"] as? Int == 1)
        let receipts = json["receipts"] as? [[String: Any]] ?? []
        #expect(receipts.first?["plugin"] as? String == "console")
        #expect(receipts.first?["form"] as? String == "Checkout pay open")

        let missing = try InspectorTestClient.get("/api/events/\(EventID.text(UUID()))", port: server.port)
        #expect(missing.status == 404)
        #expect(missing.json["error"] as? String == "no such event")

        let stream = try InspectorTestStream(port: server.port)
        _ = stream.first(within: 2) { $0.event == "health" }
        let everything = [response.raw, missing.raw, stream.everything] + (try ["/", "/api/events", "/api/health"].map {
            try InspectorTestClient.get($0, port: server.port).raw
        })
        for text in everything {
            #expect(!text.contains(Self.writeKey), "the write key was served")
            #expect(!text.contains(HTTPBasicAuthorization(user: Self.writeKey, password: "").headerValue))
        }
        await dispatcher.close()
    }

    @Test("/api/stream: a reset with the events on connect, then an event sent afterwards within 2 s, then its delivery")
    func stream() async throws {
        let (directory, collector, dispatcher, server) = try Self.inspected("inspector-stream")
        defer { collector.stop(); server.stop(); directory.remove() }
        let earlier = TrackedEvent(category: "Checkout", name: "view", action: "open")
        _ = dispatcher.send(earlier)

        let stream = try InspectorTestStream(port: server.port)
        let reset = try #require(stream.next(timeout: 2))
        #expect(stream.retry == 1000, "a page reconnects 1 s after losing the stream")
        #expect(stream.head.hasPrefix("HTTP/1.1 200"))
        #expect(stream.head.lowercased().contains("content-type: text/event-stream"))
        #expect(reset.event == "events")
        #expect(reset.json["reset"] as? Bool == true)
        #expect((reset.json["events"] as? [[String: Any]])?.first?["id"] as? String == EventID.text(earlier.id))
        #expect(stream.next(timeout: 2)?.event == "health")

        let later = TrackedEvent(category: "Checkout", name: "pay", action: "tap")
        _ = dispatcher.send(later)
        let arrived = stream.first(within: 2) { message in
            message.event == "events" && (message.json["events"] as? [[String: Any]] ?? []).contains { $0["id"] as? String == EventID.text(later.id) }
        }
        #expect(arrived != nil, "the event sent after connecting did not arrive within 2 s")
        #expect(arrived?.json["reset"] == nil)

        _ = await dispatcher.drain(timeout: 10)
        let delivered = stream.first(within: 2) { message in
            (message.json["events"] as? [[String: Any]] ?? []).contains {
                $0["id"] as? String == EventID.text(later.id) && $0["status"] as? String == "delivered"
            }
        }
        #expect(delivered != nil, "the delivery was not streamed")
        await dispatcher.close()
    }

    @Test("Rates: per-second sent and delivered samples while a stream is open")
    func rates() async throws {
        let (directory, collector, dispatcher, server) = try Self.inspected("inspector-rates")
        defer { collector.stop(); server.stop(); directory.remove() }
        let stream = try InspectorTestStream(port: server.port)
        #expect(stream.next(timeout: 2)?.event == "events")
        // The first sample sets the baseline: let it pass before sending.
        #expect(stream.first(within: 3) { $0.event == "health" } != nil)
        #expect(stream.first(within: 3) { $0.event == "health" } != nil)
        _ = dispatcher.send(contentsOf: (0..<5).map { _ in TrackedEvent(category: "Checkout", name: "view", action: "open") })
        _ = await dispatcher.drain(timeout: 10)
        var totals = (sent: 0, delivered: 0)
        let counted = await eventually(timeout: 4) {
            let rates = (try? InspectorTestClient.get("/api/health", port: server.port).json["rates"] as? [[String: Int]]) ?? []
            totals = rates.reduce((0, 0)) { ($0.0 + ($1["sent"] ?? 0), $0.1 + ($1["delivered"] ?? 0)) }
            return totals.sent == 5 && totals.delivered == 5
        }
        #expect(counted, "rates counted \(totals)")
        await dispatcher.close()
    }

    @Test("/api/health: counters, queue, pause state and reason")
    func health() async throws {
        let (directory, collector, dispatcher, server) = try Self.inspected("inspector-health")
        defer { collector.stop(); server.stop(); directory.remove() }
        dispatcher.pause()
        _ = dispatcher.send(contentsOf: (0..<3).map { _ in TrackedEvent(category: "Checkout", name: "view", action: "open") })
        let persisted = await eventually(timeout: 5) { dispatcher.counters.persisted == 3 }
        #expect(persisted)
        let json = try InspectorTestClient.get("/api/health", port: server.port).json
        let counters = json["counters"] as? [String: Int] ?? [:]
        #expect(counters["sent"] == 3)
        #expect(counters["persisted"] == 3)
        #expect(Set(counters.keys) == ["sent", "persisted", "delivered", "refused", "evicted", "rejected", "retried", "flagged"])
        #expect((json["queue"] as? [String: Int])?["depth"] == 3)
        #expect(json["paused"] as? Bool == true)
        #expect(json["pauseReason"] as? String == "paused by pause()")
        #expect(json["readOnly"] as? Bool == false)
        #expect(json["diagnostics"] is [Any])
        #expect(json["rates"] is [Any])
        await dispatcher.close()
    }

    @Test("/api/health after a refused endpoint: paused with the reason, a delivery diagnostic, no write key")
    func refusedEndpoint() async throws {
        let directory = try TemporaryDirectory(prefix: "inspector-refused")
        let collector = try LoopbackHTTPServer(lifetime: 30)
        defer { collector.stop() }
        collector.enqueue(.respond(status: 401, body: Data(#"{"error":"bad key"}"#.utf8)))
        let dispatcher = try Self.makeDispatcher(directory, collector: collector)
        let server = try InspectorServer.start(dispatcher: dispatcher)
        defer { server.stop() }
        _ = dispatcher.send(TrackedEvent(category: "Checkout", name: "pay", action: "tap"))
        _ = await dispatcher.drain(timeout: 10)
        let response = try InspectorTestClient.get("/api/health", port: server.port)
        let json = response.json
        #expect(json["paused"] as? Bool == true)
        #expect((json["pauseReason"] as? String)?.contains("refused the endpoint") == true)
        // What the Dispatcher reported (the collector's answer), then the condition holding since.
        let diagnostics = json["diagnostics"] as? [[String: Any]] ?? []
        let messages = diagnostics.compactMap { $0["message"] as? String }
        #expect(diagnostics.count == 2, "\(messages)")
        #expect(diagnostics.allSatisfy { $0["area"] as? String == "delivery" && $0["time"] is String })
        #expect(messages.first?.contains("delivery paused until resume()") == true, "\(messages)")
        #expect(messages.last?.hasPrefix("delivery paused: ") == true, "\(messages)")
        let again = try InspectorTestClient.get("/api/health", port: server.port).json["diagnostics"] as? [Any]
        #expect(again?.count == 2, "a condition still holding was noted twice")
        #expect(!response.raw.contains(Self.writeKey))
        await dispatcher.close()
    }
}
