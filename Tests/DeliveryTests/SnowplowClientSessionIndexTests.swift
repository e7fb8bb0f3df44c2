@testable import Dispatcher
import DispatcherTestKit
import Foundation
import Testing
import TestSupport
import Tracking

@Suite("Snowplow destination: the shared client_session entity gets each event's eventIndex")
struct SnowplowClientSessionIndexTests {
    let endpoint = URL(string: "https://collector.example.com")!

    /// The client_session entity as hydration shares it: every field but `eventIndex`.
    private static let sharedSession: UserDataValue = {
        guard case .object(var entity) = DeliveryFixtures.clientSession, case .object(var data)? = entity["data"] else { return .null }
        data["eventIndex"] = nil
        entity["data"] = .object(data)
        return .object(entity)
    }()

    /// An event whose shared context holds the entities and whose own context holds only the
    /// session's `eventIndex`, as hydration writes them.
    private static func event(eventIndex: Int, entities: [UserDataValue] = [sharedSession, DeliveryFixtures.mobileContext]) -> TrackedEvent {
        let shared = SharedContext([
            "installationId": "5f0c1d2e-3a4b-4c5d-8e6f-7a8b9c0d1e2f",
            "session": ["id": "1c5a6f9b-4d3e-4f20-8b9c-8d7e6f5a4b3c", "index": 3],
            "snowplowEntities": .array(entities),
        ])
        return TrackedEvent(
            timestamp: DeliveryFixtures.createdAt, category: "Cart", name: "checkout", action: "pay",
            userData: ["quantity": 3], context: ["session": ["eventIndex": .int(eventIndex)]], sharedContext: shared)
    }

    /// The `co` entities of each event of the request for `events`, and the request's body.
    private func entities(_ events: [TrackedEvent]) throws -> (entities: [[[String: Any]]], body: Data, co: [String]) {
        let destination = try SnowplowDestination(endpoint: endpoint, appID: "shop-ios", transport: SpyTransport())
        let request = try #require(destination.makeRequest(for: events.map { DeliveryFixtures.stored($0) }, sentAt: Date()))
        let data = try #require(try DeliveryFixtures.object(request.body)["data"] as? [[String: Any]])
        let co = try data.map { try #require($0["co"] as? String) }
        let entities = try co.map { try #require(try DeliveryFixtures.object(Data($0.utf8))["data"] as? [[String: Any]]) }
        return (entities, request.body, co)
    }

    private static func sessionData(_ entities: [[String: Any]]) -> [String: Any]? {
        entities.first { $0["schema"] as? String == SnowplowEntitySchema.clientSession }?["data"] as? [String: Any]
    }

    @Test("each event's client_session carries its own eventIndex, the rest of the entity unchanged, valid against the schemas")
    func fillsEventIndex() throws {
        let (entities, body, co) = try entities([Self.event(eventIndex: 12), Self.event(eventIndex: 13)])
        #expect(entities.map { Self.sessionData($0)?["eventIndex"] as? Int } == [12, 13])
        let data = try #require(Self.sessionData(entities[0]))
        #expect(data["sessionId"] as? String == "1c5a6f9b-4d3e-4f20-8b9c-8d7e6f5a4b3c")
        #expect(data["sessionIndex"] as? Int == 3 && data["storageMechanism"] as? String == "SQLITE")
        #expect(entities[0].map { $0["schema"] as? String } == [SnowplowEntitySchema.clientSession, SnowplowEntitySchema.mobileContext])
        #expect(try SchemaValidator.validateSelfDescribing(body) == [])
        for text in co {
            #expect(try SchemaValidator.validate(Data(text.utf8), against: "iglu:com.snowplowanalytics.self-desc/instance/jsonschema/1-0-0") == [])
        }
    }

    @Test("an index beyond Int32 is clamped to the schema's maximum, and stays valid")
    func clampsToInt32() throws {
        let (entities, body, _) = try entities([Self.event(eventIndex: 5_000_000_000)])
        #expect(Self.sessionData(entities[0])?["eventIndex"] as? Int == Int(Int32.max))
        #expect(try SchemaValidator.validateSelfDescribing(body) == [])
    }

    @Test("an entity that already has an eventIndex keeps it")
    func keepsExistingIndex() throws {
        let (entities, _, _) = try entities([Self.event(eventIndex: 12, entities: [DeliveryFixtures.clientSession])])
        #expect(Self.sessionData(entities[0])?["eventIndex"] as? Int == 7)
    }
}
