@testable import DataQuality
@testable import Dispatcher
import Foundation
import TestSupport
import Testing
import Tracking

/// The whole pipeline on the Snowplow wire: hydrated events (session and mobile entities),
/// persisted, delivered to a collector on 127.0.0.1, and every request body validated against
/// the official Iglu schemas kept in `Tests/Fixtures/snowplow/`.
@Suite("Snowplow end to end", .runsAlone)
struct SnowplowEndToEndTests {
    @Test("Hydrated events delivered to a collector validate against payload_data, contexts and the entity schemas")
    func collectorBodiesValidate() async throws {
        let directory = try TemporaryDirectory(prefix: "snowplow-e2e")
        defer { directory.remove() }
        let server = try LoopbackHTTPServer()
        defer { server.stop() }
        let configuration = QualityConfiguration(appID: "e2e")
        let quality = DataQualityStack(configuration: configuration, store: InMemoryIdentityStore())
        quality.identity.logIn(userID: "user-7")
        let dispatcher = try Dispatcher(configuration: DispatcherConfiguration(
            storePath: directory.file("store.sqlite").path,
            destination: try SnowplowDestination(endpoint: server.baseURL, appID: "e2e"),
            batch: BatchConfiguration(deliverySize: 1_000, flushInterval: 0), strategy: []))
        let reporter = EventReporter<Checkout>(plugins: [dispatcher], processors: quality.processors)
        var sent: [String] = []
        for index in 0..<25 {
            let receipt = try #require(reporter.send(name: .pay, action: .tap, userData: ["index": .int(index), "note": "é\"\\\n"]).first)
            sent.append(receipt.eventID.uuidString.lowercased())
        }
        let report = await dispatcher.drain(timeout: 20).report
        #expect(report.delivered == 25)
        await dispatcher.close()

        let bodies = server.requests.filter { $0.path == "/com.snowplowanalytics.snowplow/tp2" }.map(\.body)
        #expect(!bodies.isEmpty)
        var eventIDs: [String] = []
        for body in bodies {
            let errors = try SchemaValidator.validateSelfDescribing(body)
            #expect(errors.isEmpty, "schema errors: \(errors.prefix(5))")
            let json = try #require(try JSONSerialization.jsonObject(with: body) as? [String: Any])
            for event in json["data"] as? [[String: Any]] ?? [] {
                eventIDs.append(event["eid"] as? String ?? "")
                let contexts = try #require((event["co"] as? String)?.data(using: .utf8))
                let entities = (try JSONSerialization.jsonObject(with: contexts) as? [String: Any])?["data"] as? [[String: Any]] ?? []
                let schemas = entities.compactMap { $0["schema"] as? String }
                #expect(schemas.contains("iglu:com.snowplowanalytics.snowplow/client_session/jsonschema/1-0-2"))
                #expect(schemas.contains("iglu:com.snowplowanalytics.snowplow/mobile_context/jsonschema/1-0-3"))
                #expect(event["uid"] as? String == "user-7")
            }
        }
        #expect(eventIDs == sent, "eid is the event id, in order")
    }
}
