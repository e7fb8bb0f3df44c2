import Foundation
import Testing
import TestSupport
import Tracking
import TrackingTestKit
@testable import DataQuality

private enum Signup: EventType {
    enum Name: String, Sendable { case form }
    enum Action: String, Sendable { case submitted }
}

/// Rewrites each event's id to the one it is given: a custom stage ahead of the built-in ones.
private struct FixedID: EventProcessor {
    let id: UUID
    func process(_ event: inout TrackedEvent) -> Bool {
        event.id = id
        return true
    }
}

/// Stops events whose userData has `"stop": true`, counting what it sees.
private final class Stopper: EventProcessor, Sendable {
    private let seen = LockedValue<[TrackedEvent]>([])
    var events: [TrackedEvent] { seen.withLock { $0 } }
    func process(_ event: inout TrackedEvent) -> Bool {
        seen.withLock { $0.append(event) }
        return event.userData["stop"] != .bool(true)
    }
}

/// One event through every built-in stage of a real ``DataQualityStack`` and its reporter:
/// each stage's result still shows on the same event, however the send path reaches it.
@Suite("The full stack on one event")
struct FullStackSendTests {
    private let contract = DataContract(categories: [
        "Signup": CategoryContract(fields: ["plan": .mandatory(.string), "profile": .optional(.object)]),
    ])

    private func stack(duplicateWindow: TimeInterval = 60) -> DataQualityStack {
        var configuration = QualityConfiguration()
        configuration.duplicateWindow = duplicateWindow
        return DataQualityStack(
            configuration: configuration, store: InMemoryIdentityStore(), contract: contract, contractMode: .strict,
            application: ApplicationInfo(name: "Demo", version: "1.0"), device: HydrationFixtures.linux
        )
    }

    private let userData: UserData = [
        "profile": ["contact": ["email": "ada@example.com", "list": [["password": "hunter2"]]]],
        "coupon": "WELCOME",
    ]

    @Test func redactionAtDepthAContractViolationAndADuplicateAllLandOnTheSameEvent() throws {
        let quality = stack()
        let recorder = RecordingPlugin()
        let reporter = EventReporter<Signup>(plugins: [recorder], processors: quality.processors)
        let receipts = reporter.send(name: .form, action: .submitted, userData: userData)
        reporter.send(name: .form, action: .submitted, userData: userData)
        #expect(receipts.count == 1)
        let events = recorder.events
        try #require(events.count == 2)
        for event in events {
            #expect(event.hasFlag("missing_field"))
            #expect(event.hasFlag("unknown_field"))
            guard case .object(let profile)? = event.userData["profile"], case .object(let contact)? = profile["contact"],
                  case .array(let list)? = contact["list"], case .object(let entry)? = list.first else {
                Issue.record("the nested userData lost its shape: \(event.userData)")
                continue
            }
            #expect(contact["email"]?.stringValue?.hasPrefix("hmac:") == true)
            #expect(entry["password"]?.stringValue?.hasPrefix("hmac:") == true)
            #expect(event.userData["coupon"] == "WELCOME")
            #expect(event.context["session"] != nil)
        }
        #expect(!events[0].hasFlag("duplicate"))
        #expect(events[1].flags.contains(EventFlag(code: "duplicate", detail: EventID.text(events[0].id))))
        #expect(events[0].userData == events[1].userData)
        #expect(!events[1].hasFlag("duplicate_id"))
        let snapshot = quality.diagnostics.snapshot()
        #expect(snapshot.count(.sent) == 2 && snapshot.count(.flagged) == 2)
        #expect(!snapshot.recentIssues.contains { $0.message.contains("ada@example.com") || $0.message.contains("hunter2") })
    }

    @Test func idsFromTheReporterNeverRepeatButARepeatedIDIsStillFlagged() throws {
        let quality = stack(duplicateWindow: 0.000_001)
        let recorder = RecordingPlugin()
        let reporter = EventReporter<Signup>(plugins: [recorder], processors: quality.processors)
        for index in 0..<2_500 { reporter.send(name: .form, action: .submitted, userData: ["plan": "free", "n": .int(index)]) }
        #expect(!recorder.events.contains { $0.hasFlag("duplicate_id") })
        let earlier = recorder.events[2_400].id
        let replaying = EventReporter<Signup>(plugins: [recorder], processors: [FixedID(id: earlier)] + quality.processors)
        replaying.send(name: .form, action: .submitted, userData: ["plan": "free"])
        #expect(recorder.events.last?.flags.contains(EventFlag(code: "duplicate_id", detail: EventID.text(earlier))) == true)
        // Ids sent after the out-of-order one are still told apart from those before it.
        reporter.send(name: .form, action: .submitted, userData: ["plan": "free", "n": -1])
        #expect(recorder.events.last?.hasFlag("duplicate_id") == false)
        let again = EventReporter<Signup>(plugins: [recorder], processors: [FixedID(id: recorder.events[2_450].id)] + quality.processors)
        again.send(name: .form, action: .submitted, userData: ["plan": "free"])
        #expect(recorder.events.last?.hasFlag("duplicate_id") == true)
    }

    @Test func aCustomStageAmongTheBuiltInOnesSeesTheirWorkAndCanStopTheEvent() throws {
        let quality = stack()
        let stopper = Stopper()
        let first = RecordingPlugin(name: "first")
        let second = RecordingPlugin(name: "second")
        let stages = Array(quality.processors.dropLast()) + [stopper, quality.processors.last!]
        let reporter = EventReporter<Signup>(plugins: [first, second], processors: stages)
        let receipts = reporter.send(name: .form, action: .submitted, userData: ["plan": "pro", "password": "secret"])
        #expect(receipts.map(\.plugin) == ["first", "second"])
        let stopped = reporter.send(name: .form, action: .submitted, userData: ["plan": "pro", "stop": true])
        #expect(stopped.isEmpty)
        #expect(first.events.count == 1 && second.events.count == 1)
        #expect(first.events == second.events)
        // The custom stage ran after hydration and redaction, and before the tally.
        #expect(stopper.events.count == 2)
        #expect(stopper.events[0].userData["password"]?.stringValue?.hasPrefix("hmac:") == true)
        #expect(stopper.events[0].context["session"] != nil)
        #expect(quality.diagnostics.snapshot().count(.sent) == 1)
    }
}
