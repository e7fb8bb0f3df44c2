import Foundation
import Testing
import Tracking
import TrackingTestKit
@testable import DataQuality

private enum Basket: EventType {
    enum Name: String, Sendable { case add }
    enum Action: String, Sendable { case tap }
}

@Suite("Identify and screen calls through the data-quality stages")
struct CallKindQualityTests {
    private let device = HydrationFixtures.linux

    @Test("a contract that flags unknown categories does not flag $identify or $screen, but does flag an unknown feature")
    func notUnknownCategories() throws {
        let contract = DataContract(categories: ["Cart": CategoryContract()], flagsUnknownCategories: true)
        let validator = ContractValidator(contract, mode: .strict)
        let recorder = RecordingPlugin()
        let reporter = EventReporter<Basket>(plugins: [recorder], processors: [validator])
        reporter.identify(traits: ["plan": "premium"])
        reporter.screen(name: "Basket", properties: ["items": 2])
        #expect(recorder.events.allSatisfy { $0.flags.isEmpty })
        #expect(validator.violations.isEmpty)
        reporter.send(name: .add, action: .tap)
        #expect(recorder.events.last?.hasFlag("unknown_category") == true)
        #expect(validator.violations.count == 1)
    }

    @Test("a contract that names $screen checks screen properties like any category's fields")
    func contractNamingScreen() throws {
        let contract = DataContract(categories: ["$screen": CategoryContract(fields: ["items": .mandatory(.integer)])],
                                    flagsUnknownCategories: true)
        let validator = ContractValidator(contract, mode: .strict)
        let recorder = RecordingPlugin()
        let reporter = EventReporter<Basket>(plugins: [recorder], processors: [validator])
        reporter.screen(name: "Basket", properties: ["items": 2])
        reporter.screen(name: "Home", properties: ["colour": "red"])
        reporter.identify(traits: ["anything": true])
        #expect(recorder.events.map { $0.flags.map(\.code) } == [[], ["unknown_field", "missing_field"], []])
    }

    @Test("the privacy gate treats them like other events: opt-out drops them, consent can hold them")
    func privacyGate() throws {
        let controls = PrivacyControls(store: InMemoryIdentityStore(), consentCategories: ["$screen"])
        let recorder = RecordingPlugin()
        let reporter = EventReporter<Basket>(plugins: [recorder], processors: [PrivacyGate(controls)])
        reporter.screen(name: "Basket")
        reporter.identify(traits: ["plan": "free"])
        #expect(recorder.events.map(\.kind) == [.screen, .identify])
        #expect(recorder.events[0].hasFlag(EventFlag.awaitingConsentCode))
        #expect(!recorder.events[1].hasFlag(EventFlag.awaitingConsentCode))
        controls.optOut()
        #expect(reporter.screen(name: "Basket").isEmpty)
        #expect(reporter.identify(traits: ["plan": "free"]).isEmpty)
        #expect(recorder.events.count == 2)
    }

    @Test("repeated identify calls are not content duplicates; repeated screens are; a repeated id always is")
    func duplicates() throws {
        let detector = DuplicateDetector(window: 10)
        let recorder = RecordingPlugin()
        let reporter = EventReporter<Basket>(plugins: [recorder], processors: [detector])
        reporter.identify()
        reporter.identify()
        reporter.screen(name: "Basket")
        reporter.screen(name: "Basket")
        reporter.screen(name: "Home")
        #expect(recorder.events.map { $0.flags.map(\.code) } == [[], [], [], ["duplicate"], []])
        let identify = try #require(recorder.events.first)
        #expect(detector.processed(identify)?.flags.map(\.code) == ["duplicate_id"])
    }

    @Test("through the whole stack: hydrated with the logged-in user, validated, never unknown")
    func wholeStack() throws {
        let quality = DataQualityStack(
            configuration: QualityConfiguration(), store: InMemoryIdentityStore(),
            contract: DataContract(flagsUnknownCategories: true), contractMode: .strict,
            application: ApplicationInfo(name: "Demo", version: "1.0"), device: device
        )
        let recorder = RecordingPlugin()
        let reporter = EventReporter<Basket>(plugins: [recorder], processors: quality.processors)
        quality.identity.logIn(userID: "user-42")
        reporter.identify(traits: ["plan": "premium"])
        reporter.screen(name: "Basket")
        #expect(recorder.events.map(\.kind) == [.identify, .screen])
        #expect(recorder.events.allSatisfy { $0.context[ContextKey.userID] == "user-42" && $0.flags.isEmpty })
        #expect(recorder.events.allSatisfy { $0.context[ContextKey.library] == ["name": .string(TrackingLibrary.name), "version": .string(TrackingLibrary.version)] })
        try quality.validator?.assertNoViolations()
        quality.privacy.optOut()
        reporter.identify()
        #expect(recorder.events.count == 2)
    }
}
