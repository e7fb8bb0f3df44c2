import Foundation
import Testing
import TestSupport
@testable import Tracking
import TrackingTestKit
@testable import DataQuality

private enum Signup: EventType {
    enum Name: String, Sendable { case form }
    enum Action: String, Sendable { case submitted }
}

/// Sets one userData key: a custom stage between the validator and the redactor.
private struct AddField: EventProcessor {
    let key: String
    let value: UserDataValue
    func process(_ event: inout TrackedEvent) -> Bool {
        event.userData[key] = value
        return true
    }
}

/// The contract validator's one walk of the userData serves the duplicate detector's
/// fingerprint and the redactor's screen (``UserDataDigest``): what they decide from it is
/// what their own walks would decide, and a userData changed after the walk is walked again.
@Suite("One walk of the userData for contract, duplicates and redaction")
struct FusedUserDataWalkTests {
    private let contract = DataContract(categories: [
        "Signup": CategoryContract(fields: ["plan": .mandatory(.string), "email": .optional(.string), "seats": .optional(.integer)]),
    ])

    private func validatorAndRedactor(keys: [String] = ["email", "password"]) -> (ContractValidator, Redactor) {
        let matcher = SensitiveKeyMatcher(keys)
        return (ContractValidator(contract, mode: .lenient, diagnostics: nil, matcher: matcher), Redactor(matcher: matcher, strategy: .remove))
    }

    @Test func theDigestsFingerprintIsTheFullWalksFingerprint() throws {
        let (validator, _) = validatorAndRedactor()
        let userData: UserData = ["plan": "pro", "seats": 3, "extra": ["nested": [1, 2.5, "x"]], "none": .null]
        let checked = validator.check(TrackedEvent(category: "Signup", name: "form", action: "submitted", userData: userData)).event
        let digest = try #require(checked.userDataDigest)
        #expect(ContentHash.fingerprint(category: "Signup", name: "form", action: "submitted", count: userData.count, memberSums: digest.memberSums)
            == ContentHash.fingerprint(category: "Signup", name: "form", action: "submitted", userData: userData))
        // An array or object inside is the redactor's to walk: not screened.
        #expect(digest.screenedBy == 0)
    }

    @Test func aCleanUserDataIsScreenedAndASensitiveOneIsNot() throws {
        let (validator, _) = validatorAndRedactor()
        let clean = validator.check(TrackedEvent(category: "Signup", name: "form", action: "submitted", userData: ["plan": "pro", "seats": 2])).event
        #expect(try #require(clean.userDataDigest).screenedBy != 0)
        for userData: UserData in [["plan": "pro", "email": "ada@example.com"], ["plan": "pro", "PASSWORD": "hunter2"]] {
            let checked = validator.check(TrackedEvent(category: "Signup", name: "form", action: "submitted", userData: userData)).event
            #expect(try #require(checked.userDataDigest).screenedBy == 0, "\(userData)")
        }
    }

    @Test func aSensitiveKeyAddedAfterTheWalkIsStillRedacted() {
        let (validator, redactor) = validatorAndRedactor()
        let recorder = RecordingPlugin()
        let reporter = EventReporter<Signup>(plugins: [recorder], processors: [
            validator, AddField(key: "password", value: "hunter2"), redactor,
        ])
        reporter.send(name: .form, action: .submitted, userData: ["plan": "pro"])
        let userData = recorder.events.first?.userData
        #expect(userData == ["plan": "pro"])
    }

    @Test func aRedactorWithOtherKeysDoesNotTrustAnotherMatchersScreen() {
        let (validator, _) = validatorAndRedactor(keys: ["password"])
        let redactor = Redactor(matcher: SensitiveKeyMatcher(["plan"]), strategy: .remove)
        let recorder = RecordingPlugin()
        let reporter = EventReporter<Signup>(plugins: [recorder], processors: [validator, redactor])
        reporter.send(name: .form, action: .submitted, userData: ["plan": "pro", "seats": 1])
        #expect(recorder.events.first?.userData == ["seats": 1])
    }

    @Test func anOwnContextOfTheSessionAloneIsSkippedOnlyWhenSessionIsNotSensitive() throws {
        let context: UserData = ["session": ["eventIndex": 3]]
        let event = TrackedEvent(category: "Signup", name: "form", action: "submitted", context: context)
        let plain = try #require(Redactor(sensitiveKeys: ["email"], strategy: .remove).processed(event))
        #expect(plain.eventContext == context)
        let strict = try #require(Redactor(sensitiveKeys: ["Session"], strategy: .remove).processed(event))
        #expect(strict.eventContext.isEmpty)
        // Another key beside it is still looked at.
        let more = TrackedEvent(category: "Signup", name: "form", action: "submitted", context: context.merging(["email": "ada@example.com"]) { $1 })
        #expect(try #require(Redactor(sensitiveKeys: ["email"], strategy: .remove).processed(more)).eventContext == context)
    }

    @Test func theStacksSensitiveFieldsAreRedactedAndItsRepeatsFlagged() throws {
        let stack = DataQualityStack(
            configuration: QualityConfiguration(), store: InMemoryIdentityStore(), contract: contract,
            application: ApplicationInfo(name: "Demo", version: "1.0"), device: HydrationFixtures.linux)
        let recorder = RecordingPlugin()
        let reporter = EventReporter<Signup>(plugins: [recorder], processors: stack.processors)
        let userData: UserData = ["plan": "pro", "email": "ada@example.com", "seats": 4]
        reporter.send(name: .form, action: .submitted, userData: userData)
        reporter.send(name: .form, action: .submitted, userData: userData)
        reporter.send(name: .form, action: .submitted, userData: ["plan": "pro", "seats": 4])
        let events = recorder.events
        try #require(events.count == 3)
        #expect(events.allSatisfy { $0.userData["email"]?.stringValue?.hasPrefix("hmac:") ?? true })
        #expect(events[0].userData["email"]?.stringValue?.hasPrefix("hmac:") == true)
        #expect(!events[0].hasFlag("duplicate"))
        #expect(events[1].hasFlag("duplicate"))
        #expect(!events[2].hasFlag("duplicate"))
    }
}
