@testable import Dispatcher
import DispatcherTestKit
import DataQuality
import Foundation
import Testing
import TestSupport
import Tracking
import TrackingTestKit

/// The feature the reporter is made for (identify and screen do not depend on it).
private enum Shop: EventType {
    enum Name: String, Sendable { case open }
    enum Action: String, Sendable { case tap }
}

/// The library's own schema, for strict validation.
private let ownSchemas = [SnowplowSchemas.userData: SnowplowSchemas.userDataDefinition]

/// Events from `EventReporter`, with the identifiers and entities hydration adds.
private func reported(_ send: (EventReporter<Shop>) -> Void) -> [TrackedEvent] {
    let recorder = RecordingPlugin()
    let hydrate = ClosureProcessor { event in
        var event = event
        event.context["installationId"] = "5f0c1d2e-3a4b-4c5d-8e6f-7a8b9c0d1e2f"
        event.context["userId"] = "user-42"
        event.context["snowplowEntities"] = .array([DeliveryFixtures.clientSession, DeliveryFixtures.mobileContext])
        return event
    }
    send(EventReporter<Shop>(plugins: [recorder], processors: [hydrate], violationHandler: .silent))
    return recorder.events
}

/// The request's events, each a dictionary of strings.
private func fields(of request: HTTPRequest) throws -> [[String: Any]] {
    try #require(try DeliveryFixtures.object(request.body)["data"] as? [[String: Any]])
}

/// A JSON string field parsed as an object.
private func parsed(_ field: Any?) throws -> [String: Any] {
    try DeliveryFixtures.object(Data(try #require(field as? String).utf8))
}

/// The entities of an event's `co`.
private func entities(_ event: [String: Any]) throws -> [[String: Any]] {
    try #require(try parsed(event["co"])["data"] as? [[String: Any]])
}

@Suite("Snowplow screen_view and identify")
struct SnowplowCallTests {
    let endpoint = URL(string: "https://collector.example.com")!

    @Test("a screen is e=ue with the official mobile screen_view {name, id}; properties in the user_data entity; all valid")
    func screenView() throws {
        let events = reported { $0.screen(name: "Basket", properties: ["items": 3]) }
        let destination = try SnowplowDestination(endpoint: endpoint, appID: "shop", transport: SpyTransport())
        let request = try #require(destination.makeRequest(for: events.map { DeliveryFixtures.stored($0) }, sentAt: Date()))
        let event = try #require(try fields(of: request).first)
        #expect(event.values.allSatisfy { $0 is String })
        #expect(event["e"] as? String == "ue")
        #expect(event["se_ca"] == nil && event["se_pr"] == nil)
        #expect(event["uid"] as? String == "user-42")
        #expect(event["eid"] as? String == events[0].id.uuidString.lowercased())

        let unstruct = try parsed(event["ue_pr"])
        #expect(unstruct["schema"] as? String == SnowplowSchemas.unstructEvent)
        let screenView = try #require(unstruct["data"] as? [String: Any])
        #expect(screenView["schema"] as? String == "iglu:com.snowplowanalytics.mobile/screen_view/jsonschema/1-0-0")
        let data = try #require(screenView["data"] as? [String: String])
        #expect(data == ["name": "Basket", "id": events[0].id.uuidString.lowercased()])
        let screenViewData = try JSONSerialization.data(withJSONObject: data)
        #expect(try SchemaValidator.validate(screenViewData, against: SnowplowSchemas.screenView) == [])

        let attached = try entities(event)
        #expect(attached.map { $0["schema"] as? String } == [SnowplowEntitySchema.clientSession, SnowplowEntitySchema.mobileContext, SnowplowSchemas.userData])
        let userData = try #require(attached.last?["data"] as? [String: Any])
        #expect(userData["userData"] as? [String: Int] == ["items": 3])
        #expect(userData["flags"] == nil)

        // The whole body, every ue_pr and entity, against the official schemas (and ours).
        #expect(try SchemaValidator.validateSelfDescribing(request.body, additionalSchemas: ownSchemas) == [])
    }

    @Test("the screen_view schema refuses what the encoder must never send")
    func screenViewSchemaIsStrict() throws {
        let noID = Data(#"{"name":"Basket"}"#.utf8)
        #expect(try SchemaValidator.validate(noID, against: SnowplowSchemas.screenView).contains { $0.contains("'id' is a required property") })
        let extra = Data(#"{"name":"Basket","id":"0195f1b2-0000-7000-8000-000000000001","items":3}"#.utf8)
        #expect(try !SchemaValidator.validate(extra, against: SnowplowSchemas.screenView).isEmpty)
    }

    @Test("a screen without properties or flags has no user_data entity; an empty name is sent and its flag travels")
    func screenWithoutProperties() throws {
        let events = reported {
            $0.screen(name: "Home")
            $0.screen(name: "")
        }
        let destination = try SnowplowDestination(endpoint: endpoint, appID: "shop", transport: SpyTransport())
        let request = try #require(destination.makeRequest(for: events.map { DeliveryFixtures.stored($0) }, sentAt: Date()))
        let all = try fields(of: request)
        #expect(try entities(all[0]).map { $0["schema"] as? String } == [SnowplowEntitySchema.clientSession, SnowplowEntitySchema.mobileContext])
        let unnamed = try #require((try parsed(all[1]["ue_pr"])["data"] as? [String: Any])?["data"] as? [String: String])
        #expect(unnamed["name"] == "")
        let userData = try #require(try entities(all[1]).last?["data"] as? [String: Any])
        #expect((userData["userData"] as? [String: Any])?.isEmpty == true)
        #expect((userData["flags"] as? [[String: String]]) == [["code": "empty_name", "detail": "screen"]])
        #expect(try SchemaValidator.validateSelfDescribing(request.body, additionalSchemas: ownSchemas) == [])
    }

    @Test("an identify is e=se ($identify/identify) with uid, the traits in a valid user_data entity, whatever the encoding")
    func identify() async throws {
        let events = reported { $0.identify(traits: ["plan": "premium", "logins": 5]) }
        for encoding in [SnowplowEventEncoding.structured, .selfDescribing(schema: "iglu:com.example.shop/tracked_event/jsonschema/1-0-0")] {
            let spy = SpyTransport()
            let destination = try SnowplowDestination(endpoint: endpoint, appID: "shop", transport: spy, encoding: encoding)
            let result = await destination.deliver(events.map { DeliveryFixtures.stored($0) }, sentAt: Date())
            #expect(result.outcome == .delivered)
            let request = try #require(spy.requests.first)
            let event = try #require(try fields(of: request).first)
            #expect(event["e"] as? String == "se")
            #expect(event["se_ca"] as? String == "$identify")
            #expect(event["se_ac"] as? String == "identify")
            #expect(event["se_la"] as? String == "identify")
            #expect(event["se_pr"] == nil && event["ue_pr"] == nil)
            #expect(event["uid"] as? String == "user-42")
            #expect(event["duid"] as? String == "5f0c1d2e-3a4b-4c5d-8e6f-7a8b9c0d1e2f")
            let attached = try entities(event)
            #expect(attached.count == 3)
            let entity = try #require(attached.last)
            #expect(entity["schema"] as? String == SnowplowSchemas.userData)
            let traits = try #require((entity["data"] as? [String: Any])?["userData"] as? [String: Any])
            #expect(traits["plan"] as? String == "premium")
            #expect(traits["logins"] as? Int == 5)

            let entityJSON = try JSONSerialization.data(withJSONObject: entity)
            #expect(try SchemaValidator.validateSelfDescribing(entityJSON, additionalSchemas: ownSchemas) == [])
            #expect(try SchemaValidator.validateSelfDescribing(request.body, additionalSchemas: ownSchemas) == [])
        }
    }

    @Test("an identify without entities from hydration still gets a co with its traits; without traits, no co")
    func identifyWithoutHydration() throws {
        let recorder = RecordingPlugin()
        let reporter = EventReporter<Shop>(plugins: [recorder])
        reporter.identify(traits: ["plan": "free"])
        reporter.identify()
        let destination = try SnowplowDestination(endpoint: endpoint, appID: "shop", transport: SpyTransport())
        let request = try #require(destination.makeRequest(for: recorder.events.map { DeliveryFixtures.stored($0) }, sentAt: Date()))
        let all = try fields(of: request)
        #expect(try entities(all[0]).map { $0["schema"] as? String } == [SnowplowSchemas.userData])
        #expect(all[1]["co"] == nil)
        #expect(all.allSatisfy { $0["uid"] == nil })
        #expect(try SchemaValidator.validateSelfDescribing(request.body, additionalSchemas: ownSchemas) == [])
    }

    @Test("the user_data schema is one an Iglu registry accepts, and it refuses an entity without userData")
    func ownSchemaDefinition() throws {
        #expect(try SchemaValidator.validateDefinition(SnowplowSchemas.userDataDefinition, named: SnowplowSchemas.userData) == [])
        #expect(try !SchemaValidator.validateDefinition(SnowplowSchemas.userDataDefinition, named: "iglu:com.example/other/jsonschema/1-0-0").isEmpty)
        let bad = Data(#"{"flags":[{"code":"x"}],"extra":1}"#.utf8)
        let errors = try SchemaValidator.validate(bad, against: SnowplowSchemas.userData, additionalSchemas: ownSchemas)
        #expect(errors.contains { $0.contains("'userData' is a required property") })
        // Without the definition, strict validation names the unknown schema.
        let events = reported { $0.identify(traits: ["plan": "free"]) }
        let destination = try SnowplowDestination(endpoint: endpoint, appID: "shop", transport: SpyTransport())
        let request = try #require(destination.makeRequest(for: events.map { DeliveryFixtures.stored($0) }, sentAt: Date()))
        #expect(try SchemaValidator.validateSelfDescribing(request.body).contains("unknown schema " + SnowplowSchemas.userData))
    }

    @Test("feature events are encoded as before: no user_data entity")
    func trackUnchanged() throws {
        let events = reported { $0.send(name: .open, action: .tap, userData: ["a": 1]) }
        let destination = try SnowplowDestination(endpoint: endpoint, appID: "shop", transport: SpyTransport())
        let request = try #require(destination.makeRequest(for: events.map { DeliveryFixtures.stored($0) }, sentAt: Date()))
        let event = try #require(try fields(of: request).first)
        #expect(event["e"] as? String == "se")
        #expect(event["se_ca"] as? String == "Shop")
        #expect(try entities(event).map { $0["schema"] as? String } == [SnowplowEntitySchema.clientSession, SnowplowEntitySchema.mobileContext])
        #expect(try SchemaValidator.validateSelfDescribing(request.body) == [])
    }
}
