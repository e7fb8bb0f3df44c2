import Foundation
import Testing
import TestSupport
import Tracking
import TrackingTestKit
@testable import DataQuality

private enum Wishlist: EventType {
    enum Name: String, Sendable { case item }
    enum Action: String, Sendable { case add }
}

private let device = HydrationFixtures.phone
private let application = HydrationFixtures.shop

@Suite("Hydration")
struct HydrationTests {
    private func hydrator(identity: Identity? = nil, sessions: SessionTracker? = nil, providers: [any ContextProvider] = []) -> ContextHydrator {
        ContextHydrator(
            application: application, device: device, identity: identity, sessions: sessions,
            configurationHash: "abc123def456", providers: providers
        )
    }

    @Test func addsAppOSDeviceLocaleLibraryAndConfigurationHash() throws {
        let event = try #require(hydrator().processed(TrackedEvent(category: "C", name: "n", action: "a")))
        #expect(event.context["app"] == ["name": "Shop", "version": "2.4.1", "build": "812"])
        #expect(event.context["os"] == ["name": "iOS", "version": "17.4.1"])
        #expect(event.context["device"] == ["manufacturer": "Apple Inc.", "model": "iPhone15,2"])
        #expect(event.context["locale"] == "en-US")
        #expect(event.context["timezone"] == "Europe/Berlin")
        #expect(event.context["library"] == ["name": .string(TrackingLibrary.name), "version": .string(TrackingLibrary.version)])
        #expect(event.context["configHash"] == "abc123def456")
    }

    @Test("the locale is a BCP 47 tag: hyphens, no keywords or encodings", arguments: [
        ("en_001", "en-001"), ("en_US", "en-US"), ("zh_Hant_TW", "zh-Hant-TW"), ("de_DE@calendar=gregorian", "de-DE"),
        ("en_US.UTF-8", "en-US"), ("sr_RS@latin", "sr-RS"), ("fr", "fr"), ("C", "und"), ("POSIX", "und"), ("", "und"),
        ("en-GB", "en-GB"),
    ])
    func theLocaleIsALanguageTag(identifier: String, tag: String) throws {
        var localized = device
        localized.locale = identifier
        let hydrator = ContextHydrator(application: application, device: localized)
        let event = try #require(hydrator.processed(TrackedEvent(category: "C", name: "n", action: "a")))
        #expect(event.context["locale"] == .string(tag))
    }

    @Test func addsIdentifiersAndTheSession() throws {
        let store = InMemoryIdentityStore()
        let identity = Identity(store: store)
        identity.logIn(userID: "user-7")
        let sessions = SessionTracker(store: store)
        let stage = hydrator(identity: identity, sessions: sessions)
        let first = try #require(stage.processed(TrackedEvent(category: "C", name: "n", action: "a")))
        let second = try #require(stage.processed(TrackedEvent(category: "C", name: "n", action: "a")))
        #expect(first.context["installationId"] == .string(identity.installationID.uuidString.lowercased()))
        #expect(first.context["instanceId"] == .string(identity.instanceID.uuidString.lowercased()))
        #expect(first.context["userId"] == "user-7")
        guard case .object(let session1)? = first.context["session"], case .object(let session2)? = second.context["session"] else {
            Issue.record("no session in context")
            return
        }
        #expect(session1["index"] == 1 && session1["eventIndex"] == 1)
        #expect(session2["eventIndex"] == 2)
        #expect(session1["id"] == session2["id"])
        #expect(session2["firstEventId"] == .string(first.id.uuidString.lowercased()))
        identity.logOut()
        #expect(stage.processed(TrackedEvent(category: "C", name: "n", action: "a"))?.context["userId"] == nil)
    }

    @Test func customProvidersAddAndMayOverrideFields() throws {
        let providers: [any ContextProvider] = [
            StaticContextProvider(["experiment": "B"]),
            ClosureContextProvider { event in ["screen": .string("\(event.category)Screen"), "locale": "de_DE"] },
        ]
        let event = try #require(hydrator(providers: providers).processed(TrackedEvent(category: "Cart", name: "n", action: "a")))
        #expect(event.context["experiment"] == "B")
        #expect(event.context["screen"] == "CartScreen")
        #expect(event.context["locale"] == "de_DE")
    }

    @Test func theCurrentDeviceIsKnown() {
        let current = DeviceInfo.current()
        #expect(!current.osType.isEmpty && current.osType != "unknown")
        #expect(!current.model.isEmpty && current.model != "unknown")
        #expect(!current.timeZone.isEmpty)
    }

    @Test func theConfigurationHashIsShortStableAndSensitiveToChanges() {
        struct Settings: Encodable { var deliverySize = 100 }
        let hash = QualityConfiguration.hash(of: Settings())
        #expect(hash.count == 12 && hash.allSatisfy(\.isHexDigit))
        #expect(QualityConfiguration.hash(of: Settings()) == hash)
        #expect(QualityConfiguration.hash(of: Settings(deliverySize: 10)) != hash)
    }

    @Test func sha256MatchesKnownVectors() {
        #expect(SHA256Digest.hex("") == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        #expect(SHA256Digest.hex("abc") == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        #expect(SHA256Digest.hex("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq")
            == "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
        #expect(SHA256Digest.hex(String(repeating: "a", count: 1000)).count == 64)
    }

    @Test func theStackHydratesEventsSentThroughAReporter() throws {
        let recorder = RecordingPlugin()
        let configuration = QualityConfiguration(configurationHash: "0123456789ab")
        let stack = DataQualityStack(configuration: configuration, store: InMemoryIdentityStore(), application: application, device: device)
        EventReporter<Wishlist>(plugins: [recorder], processors: stack.processors).send(name: .item, action: .add, userData: ["email": "a@b.co"])
        let event = try #require(recorder.events.first)
        #expect(event.context["configHash"] == .string("0123456789ab"))
        #expect(event.userData["email"]?.stringValue?.hasPrefix("hmac:") == true)
        #expect(stack.diagnostics.snapshot().count(.sent) == 1)
    }
}

@Suite("Snowplow entities validate against the shipped schemas")
struct SnowplowEntityTests {
    private func entities(of event: TrackedEvent) -> [UserDataValue] {
        if case .array(let list)? = event.context["snowplowEntities"] { return list }
        return []
    }

    private func schema(of entity: UserDataValue) -> String? {
        if case .object(let object) = entity { return object["schema"]?.stringValue }
        return nil
    }

    @Test func clientSessionAndMobileContextAreValid() throws {
        let store = InMemoryIdentityStore()
        let stage = ContextHydrator(application: application, device: device, identity: Identity(store: store), sessions: SessionTracker(store: store))
        let first = try #require(stage.processed(TrackedEvent(category: "C", name: "n", action: "a")))
        let second = try #require(stage.processed(TrackedEvent(category: "C", name: "n", action: "a")))
        for event in [first, second] {
            let list = entities(of: event)
            #expect(list.compactMap(schema) == [SnowplowEntity.mobileContextSchema, SnowplowEntity.clientSessionSchema])
            for entity in list {
                let errors = try SchemaValidator.validateSelfDescribing(entity)
                #expect(errors.isEmpty, "\(schema(of: entity) ?? "?"): \(errors.joined(separator: "; "))")
            }
        }
    }

    @Test func aRolloverIsReflectedInContextAndEntity() throws {
        let store = InMemoryIdentityStore()
        let identity = Identity(store: store)
        let stage = ContextHydrator(
            application: application, device: device, identity: identity,
            sessions: SessionTracker(store: store, foregroundTimeout: 60, backgroundTimeout: 60)
        )
        let start = Date(timeIntervalSince1970: 1_800_000_000)
        let first = try #require(stage.processed(TrackedEvent(timestamp: start, category: "C", name: "n", action: "a")))
        // Past the 60 s timeout by a second: idle time is read from two clocks, which may differ by microseconds.
        let second = try #require(stage.processed(TrackedEvent(timestamp: start.addingTimeInterval(61), category: "C", name: "n", action: "a")))
        func sessionData(_ event: TrackedEvent) -> [String: UserDataValue] {
            guard case .array(let list)? = event.context["snowplowEntities"], list.count == 2,
                  case .object(let entity) = list[1], case .object(let data)? = entity["data"] else { return [:] }
            return data
        }
        let before = sessionData(first), after = sessionData(second)
        #expect(before["sessionIndex"] == 1 && after["sessionIndex"] == 2)
        #expect(after["previousSessionId"] == before["sessionId"])
        #expect(after["firstEventId"] == .string(second.id.uuidString.lowercased()))
        // The shared entity has no event index: a Snowplow destination takes `session.eventIndex`.
        #expect(after["eventIndex"] == nil && before["eventIndex"] == nil)
        #expect(after["userId"] == .string(identity.installationID.uuidString.lowercased()))
        guard case .object(let session)? = second.context["session"] else {
            Issue.record("no session")
            return
        }
        #expect(session["previousId"] == before["sessionId"] && session["index"] == 2 && session["eventIndex"] == 1)
        for event in [first, second] {
            guard case .array(let list)? = event.context["snowplowEntities"] else { continue }
            for entity in list { #expect(try SchemaValidator.validateSelfDescribing(entity).isEmpty) }
        }
    }

    @Test func theEntitiesArrayIsAValidContextsWrapperPayload() throws {
        let store = InMemoryIdentityStore()
        let stage = ContextHydrator(application: application, device: device, identity: Identity(store: store), sessions: SessionTracker(store: store))
        let event = try #require(stage.processed(TrackedEvent(category: "C", name: "n", action: "a")))
        let list = try #require(event.context["snowplowEntities"])
        let errors = try SchemaValidator.validate(list, against: "iglu:com.snowplowanalytics.snowplow/contexts/jsonschema/1-0-1")
        #expect(errors.isEmpty, "\(errors)")
    }

    @Test func aSessionWithAPreviousSessionIsValid() throws {
        var state = SessionState(foregroundTimeout: 1, backgroundTimeout: 1)
        _ = state.nextEvent(at: Date(timeIntervalSince1970: 0), id: UUID())
        let rolled = state.nextEvent(at: Date(timeIntervalSince1970: 5), id: UUID())
        #expect(rolled.previousSessionID != nil)
        let entity = SnowplowEntity.clientSession(rolled, installationID: UUID())
        #expect(try SchemaValidator.validateSelfDescribing(entity).isEmpty)
    }

    @Test func theCurrentDevicesMobileContextIsValid() throws {
        #expect(try SchemaValidator.validateSelfDescribing(SnowplowEntity.mobileContext(.current())).isEmpty)
    }

    @Test func theValidatorCatchesABrokenEntity() throws {
        // Guards the helper itself: an uppercase userId and a missing required field must fail.
        let broken: UserDataValue = ["schema": .string(SnowplowEntity.clientSessionSchema), "data": ["userId": "NOT-A-UUID", "sessionIndex": 1]]
        let errors = try SchemaValidator.validateSelfDescribing(broken)
        #expect(errors.contains { $0.contains("sessionId") })
        #expect(errors.contains { $0.contains("userId") })
    }
}
