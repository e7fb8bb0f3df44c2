import Foundation
import Testing
import TestSupport
import Tracking
import TrackingTestKit
@testable import DataQuality

private enum Marketing: EventType {
    enum Name: String, Sendable { case newsletter }
    enum Action: String, Sendable { case view }
}

private enum Basket: EventType {
    enum Name: String, Sendable { case add }
    enum Action: String, Sendable { case tap }
}

@Suite("Privacy")
struct PrivacyTests {
    @Test func optOutStopsEventsAtOnceAndPersistsAcrossARestart() throws {
        let folder = try TemporaryDirectory(prefix: "DataQualityTests")
        defer { folder.remove() }
        let file = folder.file("identity.json")
        let recorder = RecordingPlugin()
        let controls = PrivacyControls(store: try FileIdentityStore(url: file))
        let diagnostics = Diagnostics()
        let reporter = EventReporter<Basket>(plugins: [recorder], processors: [PrivacyGate(controls, diagnostics: diagnostics)])
        reporter.send(name: .add, action: .tap)
        controls.optOut()
        reporter.send(name: .add, action: .tap)
        #expect(recorder.events.count == 1)
        #expect(diagnostics.snapshot().count(.dropped) == 1)

        // "Restart": new instances on the same file.
        let restarted = PrivacyControls(store: try FileIdentityStore(url: file))
        #expect(restarted.isOptedOut)
        let afterRestart = RecordingPlugin()
        EventReporter<Basket>(plugins: [afterRestart], processors: [PrivacyGate(restarted)]).send(name: .add, action: .tap)
        #expect(afterRestart.events.isEmpty)

        restarted.optIn()
        #expect(!PrivacyControls(store: try FileIdentityStore(url: file)).isOptedOut)
    }

    @Test func consentHoldsEventsThenReleasesThemWhenGranted() throws {
        let store = InMemoryIdentityStore()
        let controls = PrivacyControls(store: store, consentCategories: ["Marketing"])
        let changes = ChangeLog()
        controls.observe { changes.append($0) }
        let recorder = RecordingPlugin()
        let processors: [any EventProcessor] = [PrivacyGate(controls)]
        let marketing = EventReporter<Marketing>(plugins: [recorder], processors: processors)
        let basket = EventReporter<Basket>(plugins: [recorder], processors: processors)

        marketing.send(name: .newsletter, action: .view)
        basket.send(name: .add, action: .tap)
        let held = recorder.events[0]
        #expect(controls.consent(for: "Marketing") == .pending)
        #expect(held.flags == [EventFlag(code: "awaiting_consent", detail: "Marketing")])
        #expect(held.context["awaitingConsent"] == "Marketing")
        #expect(recorder.events[1].flags.isEmpty)

        controls.setConsent(.granted, for: "Marketing")
        #expect(changes.all == [.consent(category: "Marketing", decision: .granted)])
        marketing.send(name: .newsletter, action: .view)
        #expect(recorder.events[2].flags.isEmpty)
        #expect(PrivacyControls(store: store, consentCategories: ["Marketing"]).consent(for: "Marketing") == .granted)
    }

    @Test func aDecisionForACategoryAddedAtRunTimeSurvivesARestart() throws {
        let folder = try TemporaryDirectory(prefix: "DataQualityTests")
        defer { folder.remove() }
        let file = folder.file("identity.json")
        PrivacyControls(store: try FileIdentityStore(url: file)).setConsent(.denied, for: "Ads")
        let restarted = PrivacyControls(store: try FileIdentityStore(url: file))
        #expect(restarted.consent(for: "Ads") == .denied)
        #expect(restarted.consentCategories == ["Ads"])
        #expect(restarted.consent(for: "Basket") == .notRequired)
    }

    @Test func deniedConsentDropsEventsAndTellsObservers() {
        let controls = PrivacyControls(store: InMemoryIdentityStore(), consentCategories: ["Marketing"])
        let changes = ChangeLog()
        let token = controls.observe { changes.append($0) }
        controls.setConsent(.denied, for: "Marketing")
        #expect(PrivacyGate(controls).processed(TrackedEvent(category: "Marketing", name: "n", action: "a")) == nil)
        #expect(PrivacyGate(controls).processed(TrackedEvent(category: "Basket", name: "n", action: "a")) != nil)
        controls.removeObserver(token)
        controls.setConsent(.granted, for: "Marketing")
        #expect(changes.all == [.consent(category: "Marketing", decision: .denied)])
    }

    @Test func aCategoryFirstNamedAtRunTimeNeedsConsentWhateverItsLength() {
        let controls = PrivacyControls(store: InMemoryIdentityStore(), consentCategories: ["Marketing"])
        controls.setConsent(.denied, for: "Ads")
        controls.setConsent(.denied, for: "A category of more than sixty-three bytes, which all share one length bit")
        #expect(PrivacyGate(controls).processed(TrackedEvent(category: "Ads", name: "n", action: "a")) == nil)
        #expect(PrivacyGate(controls).processed(TrackedEvent(category: "Ads2", name: "n", action: "a")) != nil)
        #expect(PrivacyGate(controls).processed(TrackedEvent(
            category: "A category of more than sixty-three bytes, which all share one length bit", name: "n", action: "a")) == nil)
        #expect(PrivacyGate(controls).processed(TrackedEvent(
            category: "Another category of more than sixty-three bytes, with the same length bit", name: "n", action: "a")) != nil)
        #expect(controls.consent(for: "Marketing") == .pending)
    }

    @Test func purgeClearsPrivacyStateAndIdentifiersAndTellsTheDispatcher() throws {
        let folder = try TemporaryDirectory(prefix: "DataQualityTests")
        defer { folder.remove() }
        let file = folder.file("identity.json")
        let configuration = QualityConfiguration(consentCategories: ["Marketing"])
        let stack = try DataQualityStack(configuration: configuration, folder: folder.url)
        let changes = ChangeLog()
        stack.privacy.observe { changes.append($0) }
        stack.identity.logIn(userID: "user-1")
        stack.privacy.setConsent(.granted, for: "Marketing")
        EventReporter<Basket>(processors: stack.processors).send(name: .add, action: .tap)
        #expect(try FileIdentityStore(url: file).value(forKey: Identity.Key.installationID) != nil)

        stack.purge()
        let reopened = try FileIdentityStore(url: file)
        for key in [Identity.Key.installationID, Identity.Key.userID, SessionTracker.storeKey, PrivacyControls.Key.consentPrefix + "Marketing"] {
            #expect(reopened.value(forKey: key) == nil, "\(key) survived the purge")
        }
        let contents = try JSONDecoder().decode([String: String].self, from: Data(contentsOf: file))
        #expect(contents.isEmpty)
        #expect(changes.all.last == .purged)
        #expect(stack.privacy.consent(for: "Marketing") == .pending)
    }

    @Test func redactionHashesSensitiveKeysAtAnyDepth() throws {
        let key = RedactionKey(bytes: Array(repeating: 7, count: 32))
        let redactor = Redactor(sensitiveKeys: ["email", "Phone"], strategy: .hash(key: key))
        let event = TrackedEvent(
            category: "C", name: "n", action: "a",
            userData: ["email": "a@b.co", "profile": ["PHONE": "+4912345", "city": "Berlin"], "contacts": [["email": "c@d.co"]], "kept": 1],
            context: ["email": "ctx@b.co"]
        )
        let result = try #require(redactor.processed(event))
        let hashed = Redactor.hash("a@b.co", key: key)
        #expect(result.userData["email"] == .string(hashed))
        #expect(hashed.hasPrefix("hmac:") && hashed.count == 21)
        #expect(result.userData["profile"] == ["PHONE": .string(Redactor.hash("+4912345", key: key)), "city": "Berlin"])
        #expect(result.userData["contacts"] == [["email": .string(Redactor.hash("c@d.co", key: key))]])
        #expect(result.userData["kept"] == 1)
        #expect(result.context["email"] == .string(Redactor.hash("ctx@b.co", key: key)))
        #expect(!result.description.contains("a@b.co"))
        #expect(Redactor.hash("a@b.co", key: RedactionKey(bytes: Array(repeating: 8, count: 32))) != hashed)
    }

    @Test func redactionLeavesSchemaBoundSnowplowEntitiesAlone() throws {
        let entities: UserDataValue = [["schema": "iglu:x", "data": ["userId": "0195f1b2-0000-7000-8000-000000000001"]]]
        let event = TrackedEvent(category: "C", name: "n", action: "a", userData: ["userId": "u1"], context: ["snowplowEntities": entities, "userId": "u1"])
        let result = try #require(Redactor(sensitiveKeys: ["userId"], strategy: .remove).processed(event))
        #expect(result.userData.isEmpty)
        #expect(result.context == ["snowplowEntities": entities])
    }

    @Test func redactionCanRemoveKeys() throws {
        let redactor = Redactor(sensitiveKeys: ["password"], strategy: .remove)
        let result = try #require(redactor.processed(TrackedEvent(category: "C", name: "n", action: "a", userData: ["password": "x", "nested": ["password": "y", "ok": true]])))
        #expect(result.userData == ["nested": ["ok": true]])
    }

    @Test func theConsoleNeverPrintsARedactedValue() throws {
        let buffer = TextBuffer()
        let reporter = EventReporter<Basket>(plugins: [ConsoleReporter(stream: buffer)], processors: [Redactor(sensitiveKeys: ["email"])])
        reporter.send(name: .add, action: .tap, userData: ["email": "private@example.com"])
        #expect(!buffer.text.contains("private@example.com"))
        #expect(buffer.text.contains("hmac:"))
    }
}

/// Collects privacy changes from observers on any thread.
final class ChangeLog: Sendable {
    private let changes = LockedValue<[PrivacyChange]>([])
    func append(_ change: PrivacyChange) { changes.withLock { $0.append(change) } }
    var all: [PrivacyChange] { changes.withLock { $0 } }
}
