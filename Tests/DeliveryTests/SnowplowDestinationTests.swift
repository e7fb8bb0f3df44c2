@testable import Dispatcher
import DispatcherTestKit
import DataQuality
import Foundation
import Testing
import TestSupport
import Tracking

@Suite("Snowplow destination wire format")
struct SnowplowDestinationTests {
    let endpoint = URL(string: "https://collector.example.com")!

    @Test("a structured event: every field a string, entities in co, and the body valid against the schemas")
    func structured() async throws {
        let spy = SpyTransport()
        let destination = try SnowplowDestination(endpoint: endpoint, appID: "shop-ios", transport: spy)
        let event = DeliveryFixtures.trackedEvent()
        let sentAt = Date(timeIntervalSince1970: 1_795_255_260.5)
        let result = await destination.deliver([DeliveryFixtures.stored(event)], sentAt: sentAt)
        #expect(result.outcome == .delivered)

        let request = try #require(spy.requests.first)
        #expect(request.url.absoluteString == "https://collector.example.com/com.snowplowanalytics.snowplow/tp2")
        #expect(request.header("Content-Type") == "application/json; charset=utf-8")
        let body = try DeliveryFixtures.object(request.body)
        #expect(body["schema"] as? String == "iglu:com.snowplowanalytics.snowplow/payload_data/jsonschema/1-0-4")
        let data = try #require(body["data"] as? [[String: Any]])
        let fields = try #require(data.first)
        #expect(fields.values.allSatisfy { $0 is String })
        #expect(fields["e"] as? String == "se")
        #expect(fields["se_ca"] as? String == "Cart")
        #expect(fields["se_ac"] as? String == "pay")
        #expect(fields["se_la"] as? String == "checkout")
        #expect(fields["eid"] as? String == event.id.uuidString.lowercased())
        #expect(fields["dtm"] as? String == "1795255200123")
        #expect(fields["stm"] as? String == "1795255260500")
        #expect(fields["tv"] as? String == "swift-tracking-" + TrackingLibrary.version)
        #expect(fields["p"] as? String == "mob")
        #expect(fields["aid"] as? String == "shop-ios")
        #expect(fields["tna"] as? String == "tracking")
        #expect(fields["uid"] as? String == "user-42")
        #expect(fields["duid"] as? String == "5f0c1d2e-3a4b-4c5d-8e6f-7a8b9c0d1e2f")
        let properties = try DeliveryFixtures.object(Data(try #require(fields["se_pr"] as? String).utf8))
        #expect(properties["cardType"] as? String == "Mastercard")
        #expect(properties["quantity"] as? Int == 3)

        let contexts = try DeliveryFixtures.object(Data(try #require(fields["co"] as? String).utf8))
        #expect(contexts["schema"] as? String == "iglu:com.snowplowanalytics.snowplow/contexts/jsonschema/1-0-1")
        let entities = try #require(contexts["data"] as? [[String: Any]])
        #expect(entities.map { $0["schema"] as? String } == [SnowplowEntitySchema.clientSession, SnowplowEntitySchema.mobileContext])

        #expect(try SchemaValidator.validateSelfDescribing(request.body) == [])
        #expect(try SchemaValidator.validate(Data(try #require(fields["co"] as? String).utf8),
                                             against: "iglu:com.snowplowanalytics.self-desc/instance/jsonschema/1-0-0") == [])
    }

    @Test("a self-describing event wraps category, name, action, userData and flags in ue_pr")
    func selfDescribing() async throws {
        let spy = SpyTransport()
        let schema = "iglu:com.example.shop/tracked_event/jsonschema/1-0-0"
        let destination = try SnowplowDestination(endpoint: endpoint, appID: "shop", transport: spy,
                                                  encoding: .selfDescribing(schema: schema))
        let event = DeliveryFixtures.trackedEvent()
        _ = await destination.deliver([DeliveryFixtures.stored(event)], sentAt: Date())
        let request = try #require(spy.requests.first)
        let fields = try #require((try DeliveryFixtures.object(request.body)["data"] as? [[String: Any]])?.first)
        #expect(fields["e"] as? String == "ue")
        #expect(fields["se_ca"] == nil)
        let unstruct = try DeliveryFixtures.object(Data(try #require(fields["ue_pr"] as? String).utf8))
        #expect(unstruct["schema"] as? String == SnowplowSchemas.unstructEvent)
        let inner = try #require(unstruct["data"] as? [String: Any])
        #expect(inner["schema"] as? String == schema)
        let payload = try #require(inner["data"] as? [String: Any])
        #expect(payload["category"] as? String == "Cart")
        #expect(payload["name"] as? String == "checkout")
        #expect(payload["action"] as? String == "pay")
        #expect((payload["userData"] as? [String: Any])?["gift"] as? Bool == true)
        #expect(((payload["flags"] as? [[String: Any]])?.first)?["code"] as? String == "unknown_field")

        #expect(try SchemaValidator.validateSelfDescribing(request.body, allowUnknownSchemas: true) == [])
        #expect(try SchemaValidator.validate(Data(try #require(fields["ue_pr"] as? String).utf8),
                                             against: "iglu:com.snowplowanalytics.self-desc/instance/jsonschema/1-0-0") == [])
        // Our own event schema is not in the contracts folder: strict validation says so.
        #expect(try SchemaValidator.validateSelfDescribing(request.body).contains("unknown schema " + schema))
    }

    @Test("the validator catches a broken entity and a non-string field")
    func validatorFindsErrors() throws {
        let bad = #"""
        {"schema":"iglu:com.snowplowanalytics.snowplow/payload_data/jsonschema/1-0-4","data":[{"e":"se","p":"mob","tv":1,
        "co":"{\"schema\":\"iglu:com.snowplowanalytics.snowplow/contexts/jsonschema/1-0-1\",\"data\":[{\"schema\":\"iglu:com.snowplowanalytics.snowplow/client_session/jsonschema/1-0-2\",\"data\":{\"sessionIndex\":-1}}]}"}]}
        """#
        let errors = try SchemaValidator.validateSelfDescribing(Data(bad.utf8))
        #expect(errors.contains { $0.contains("/data/0/tv") })
        #expect(errors.contains { $0.contains("client_session") && $0.contains("'userId' is a required property") })
        #expect(errors.contains { $0.contains("sessionIndex") })
    }

    @Test("events without entities or user id leave out co and uid, and stay valid")
    func minimal() throws {
        let destination = try SnowplowDestination(endpoint: endpoint, appID: "a", transport: SpyTransport())
        let rows = DeliveryFixtures.encodedEvents(3).enumerated().map {
            StoredEvent(sequence: Int64($0.offset), event: $0.element, status: .inFlight, attempts: 0, createdAt: Date())
        }
        let request = try #require(destination.makeRequest(for: rows, sentAt: Date()))
        let data = try #require(try DeliveryFixtures.object(request.body)["data"] as? [[String: Any]])
        #expect(data.count == 3)
        #expect(data.allSatisfy { $0["co"] == nil && $0["uid"] == nil && $0["duid"] != nil })
        #expect(try SchemaValidator.validateSelfDescribing(request.body) == [])
        #expect(destination.makeRequest(for: [], sentAt: Date()) == nil)
    }
}
