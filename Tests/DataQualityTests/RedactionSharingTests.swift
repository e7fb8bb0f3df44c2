import Foundation
import Testing
import Tracking
@testable import DataQuality

@Suite("Redaction of shared context")
struct RedactionSharingTests {
    private static let key = RedactionKey(bytes: Array(repeating: 7, count: 32))
    private let redactor = Redactor(sensitiveKeys: ["email"], strategy: .hash(key: Self.key))

    private func event(sharing shared: SharedContext, own: UserData = [:]) -> TrackedEvent {
        TrackedEvent(category: "C", name: "n", action: "a", userData: ["email": "u@b.co"], context: own, sharedContext: shared)
    }

    @Test func sharedValuesAreRedactedOnceAndStayShared() throws {
        let shared = SharedContext(["email": "ctx@b.co", "app": ["name": "Shop"]])
        let first = try #require(redactor.processed(event(sharing: shared, own: ["email": "own@b.co", "session": ["eventIndex": 1]])))
        let second = try #require(redactor.processed(event(sharing: shared)))
        let redacted = try #require(first.sharedContext)
        #expect(redacted !== shared)
        #expect(second.sharedContext === redacted)
        #expect(redacted.values == ["email": .string(Redactor.hash("ctx@b.co", key: Self.key)), "app": ["name": "Shop"]])
        #expect(first.eventContext == ["email": .string(Redactor.hash("own@b.co", key: Self.key)), "session": ["eventIndex": 1]])
        #expect(first.userData["email"] == .string(Redactor.hash("u@b.co", key: Self.key)))
        #expect(first.context["email"] == .string(Redactor.hash("own@b.co", key: Self.key)))
        #expect(!first.context.description.contains("@b.co"))
    }

    @Test func anotherSharedInstanceIsRedactedAgain() throws {
        let before = SharedContext(["email": "one@b.co"])
        let after = SharedContext(["email": "two@b.co"])
        let first = try #require(redactor.processed(event(sharing: before)))
        let second = try #require(redactor.processed(event(sharing: after)))
        #expect(first.sharedContext?.values["email"] == .string(Redactor.hash("one@b.co", key: Self.key)))
        #expect(second.sharedContext?.values["email"] == .string(Redactor.hash("two@b.co", key: Self.key)))
    }

    @Test func aSharedContextWithNothingSensitiveIsPassedOnAsIs() throws {
        let shared = SharedContext(["app": ["name": "Shop"], "locale": "en-US"])
        let result = try #require(redactor.processed(event(sharing: shared)))
        #expect(result.sharedContext === shared)
    }

    @Test func theStacksEventsShareOneRedactedContext() throws {
        let stack = DataQualityStack(configuration: QualityConfiguration(), store: InMemoryIdentityStore())
        func run(_ event: TrackedEvent) -> TrackedEvent? {
            stack.processors.reduce(Optional(event)) { current, stage in current.flatMap(stage.processed) }
        }
        let first = try #require(run(TrackedEvent(category: "C", name: "n", action: "a", userData: ["k": 1])))
        let second = try #require(run(TrackedEvent(category: "C", name: "n", action: "a", userData: ["k": 2])))
        #expect(first.sharedContext != nil && first.sharedContext === second.sharedContext)
        #expect(second.eventContext == ["session": ["eventIndex": 2]])
    }

    @Test func theStacksHydrationScreensEachSharedContextForItsRedactor() throws {
        let stack = DataQualityStack(configuration: QualityConfiguration(), store: InMemoryIdentityStore())
        let event = try #require(stack.processors.reduce(Optional(TrackedEvent(category: "C", name: "n", action: "a"))) {
            current, stage in current.flatMap(stage.processed)
        })
        let shared = try #require(event.sharedContext)
        #expect(shared.screenedBy != 0, "nothing sensitive in it: marked, and passed on without a lookup")
        #expect(SharedContext(shared.values).screenedBy == 0, "a context made elsewhere is not marked")
    }

    @Test func aSharedContextHoldingASensitiveValueIsStillRedacted() throws {
        var configuration = QualityConfiguration()
        configuration.sensitiveKeys = [ContextKey.userID]
        let stack = DataQualityStack(configuration: configuration, store: InMemoryIdentityStore(), redactionKey: Self.key)
        stack.identity.logIn(userID: "alice")
        let event = try #require(stack.processors.reduce(Optional(TrackedEvent(category: "C", name: "n", action: "a"))) {
            current, stage in current.flatMap(stage.processed)
        })
        let shared = try #require(event.sharedContext)
        #expect(shared.values[ContextKey.userID] == .string(Redactor.hash("alice", key: Self.key)))
        #expect(!event.context.description.contains("alice"))
    }

    @Test func aNewKeyIsUsedForTheSharedContextRedactedBefore() throws {
        let redactor = Redactor(sensitiveKeys: ["email"], strategy: .hash(key: Self.key))
        let shared = SharedContext(["email": "ctx@b.co"])
        _ = try #require(redactor.processed(event(sharing: shared)))
        let renewed = RedactionKey(bytes: Array(repeating: 9, count: 32))
        redactor.keys.replace(renewed)
        let after = try #require(redactor.processed(event(sharing: shared)))
        #expect(after.sharedContext?.values["email"] == .string(Redactor.hash("ctx@b.co", key: renewed)))
        #expect(after.userData["email"] == .string(Redactor.hash("u@b.co", key: renewed)))
        #expect(redactor.strategy == .hash(key: renewed))
    }
}
