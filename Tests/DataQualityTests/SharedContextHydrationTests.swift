import Foundation
import Testing
import TestSupport
import Tracking
import TrackingTestKit
@testable import DataQuality

private let device = HydrationFixtures.phone
private let application = HydrationFixtures.shop

@Suite("Hydration shares one context per session")
struct SharedContextHydrationTests {
    private struct Setup {
        let identity: Identity
        let sessions: SessionTracker
        let hydrator: ContextHydrator
    }

    private func setup(timeout: TimeInterval = 1800, providers: [any ContextProvider] = []) -> Setup {
        let store = InMemoryIdentityStore()
        let identity = Identity(store: store)
        let sessions = SessionTracker(store: store, foregroundTimeout: timeout, backgroundTimeout: timeout)
        let hydrator = ContextHydrator(
            application: application, device: device, identity: identity, sessions: sessions,
            configurationHash: "abc123def456", providers: providers
        )
        return Setup(identity: identity, sessions: sessions, hydrator: hydrator)
    }

    private func hydrate(_ setup: Setup, at date: Date = Date(), context: UserData = [:]) throws -> TrackedEvent {
        try #require(setup.hydrator.processed(TrackedEvent(timestamp: date, category: "C", name: "n", action: "a", context: context)))
    }

    @Test func eventsOfOneSessionShareOneInstanceAndCarryOnlyTheirIndex() throws {
        let setup = setup()
        let events = try (0..<3).map { _ in try hydrate(setup) }
        let shared = try #require(events[0].sharedContext)
        #expect(events.allSatisfy { $0.sharedContext === shared })
        for (offset, event) in events.enumerated() {
            #expect(event.eventContext == ["session": ["eventIndex": .int(offset + 1)]])
        }
        // The shared part holds everything else, the session without its index.
        for key in ["app", "os", "device", "locale", "timezone", "library", "configHash", "installationId", "instanceId"] {
            #expect(shared.values[key] != nil, "\(key)")
        }
        guard case .object(let session)? = shared.values["session"] else {
            Issue.record("no shared session")
            return
        }
        #expect(session["eventIndex"] == nil && session["index"] == 1)
    }

    @Test func aNewSessionGetsANewInstance() throws {
        let setup = setup(timeout: 60)
        let start = Date(timeIntervalSince1970: 1_800_000_000)
        let first = try hydrate(setup, at: start)
        let second = try hydrate(setup, at: start.addingTimeInterval(120))
        #expect(first.sharedContext !== second.sharedContext)
        guard case .object(let before)? = first.context["session"], case .object(let after)? = second.context["session"] else {
            Issue.record("no session")
            return
        }
        #expect(before["index"] == 1 && after["index"] == 2 && after["eventIndex"] == 1)
        #expect(after["previousId"] == before["id"])
    }

    @Test func loggingInOrOutGetsANewInstance() throws {
        let setup = setup()
        let anonymous = try hydrate(setup)
        setup.identity.logIn(userID: "user-7")
        let loggedIn = try hydrate(setup)
        let stillLoggedIn = try hydrate(setup)
        setup.identity.logOut()
        let loggedOut = try hydrate(setup)
        #expect(anonymous.sharedContext !== loggedIn.sharedContext)
        #expect(loggedIn.sharedContext === stillLoggedIn.sharedContext)
        #expect(loggedOut.sharedContext !== loggedIn.sharedContext)
        #expect(anonymous.context["userId"] == nil && loggedIn.context["userId"] == "user-7" && loggedOut.context["userId"] == nil)
    }

    @Test func aPurgeGetsANewInstallationIDAndInstance() throws {
        let setup = setup()
        let before = try hydrate(setup)
        setup.identity.purge()
        setup.sessions.purge()
        let after = try hydrate(setup)
        #expect(before.sharedContext !== after.sharedContext)
        #expect(before.context["installationId"] != after.context["installationId"])
    }

    @Test func purgingTheIdentityAloneInOneSessionGetsTheNewInstallationID() throws {
        let setup = setup()
        let before = try hydrate(setup)
        setup.identity.purge()
        let after = try hydrate(setup)
        #expect(before.sharedContext !== after.sharedContext)
        #expect(before.context["installationId"] != after.context["installationId"])
        #expect(after.context["installationId"] == .string(setup.identity.installationID.uuidString.lowercased()))
        #expect(try hydrate(setup).sharedContext === after.sharedContext, "the new shared context is kept again")
    }

    @Test func theMergedContextIsTheFlatContextOfBefore() throws {
        let setup = setup()
        let event = try hydrate(setup)
        let identity = setup.identity
        let context = event.context
        #expect(context["installationId"] == .string(identity.installationID.uuidString.lowercased()))
        #expect(context["instanceId"] == .string(identity.instanceID.uuidString.lowercased()))
        guard case .object(let session)? = context["session"] else {
            Issue.record("no session")
            return
        }
        #expect(session["eventIndex"] == 1 && session["index"] == 1)
        #expect(session["firstEventId"] == .string(event.id.uuidString.lowercased()))
        guard case .array(let entities)? = context["snowplowEntities"], entities.count == 2 else {
            Issue.record("no entities")
            return
        }
        #expect(entities[0] == SnowplowEntity.mobileContext(device))
    }

    @Test func aCallersOwnKeysStayButHydrationsKeysReplaceThem() throws {
        let setup = setup()
        let callerEntity: UserDataValue = ["schema": "iglu:com.example/thing/jsonschema/1-0-0", "data": ["a": 1]]
        let event = try hydrate(setup, context: ["experiment": "B", "locale": "xx", "session": ["mine": true], "snowplowEntities": [callerEntity]])
        #expect(event.eventContext["experiment"] == "B")
        #expect(event.eventContext["locale"] == nil)
        #expect(event.context["locale"] == "en-US")
        #expect(event.context["session"]?.objectMember("mine") == nil)
        #expect(event.context["session"]?.objectMember("eventIndex") == 1)
        guard case .array(let entities)? = event.context["snowplowEntities"] else {
            Issue.record("no entities")
            return
        }
        #expect(entities.count == 3 && entities[0] == callerEntity)
    }

    @Test func providerFieldsAreTheEventsOwnAndReplaceSharedObjects() throws {
        let providers: [any ContextProvider] = [
            StaticContextProvider(["experiment": "B", "locale": "de_DE"]),
            ClosureContextProvider { event in ["sawSession": .bool(event.context["session"] != nil)] },
        ]
        let setup = setup(providers: providers)
        let event = try hydrate(setup)
        #expect(event.eventContext == ["session": ["eventIndex": 1], "experiment": "B", "locale": "de_DE", "sawSession": true])
        #expect(event.context["locale"] == "de_DE")

        let replacing = self.setup(providers: [StaticContextProvider(["app": ["name": "Other"]])])
        let replaced = try hydrate(replacing)
        #expect(replaced.context["app"] == ["name": "Other"])
        #expect(replaced.context["session"]?.objectMember("eventIndex") == 1)
    }
}

private extension UserDataValue {
    func objectMember(_ key: String) -> UserDataValue? {
        if case .object(let members) = self { return members[key] }
        return nil
    }
}
