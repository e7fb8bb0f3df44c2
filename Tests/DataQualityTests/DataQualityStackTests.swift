import Foundation
import Testing
import TestSupport
import Tracking
import TrackingTestKit
@testable import DataQuality

private enum Onboarding: EventType {
    enum Name: String, Sendable { case registration, consents }
    enum Action: String, Sendable { case submitted, tapped }
}

@Suite("The composed stack")
struct DataQualityStackTests {
    private let device = HydrationFixtures.linux

    private func stack(_ configure: (inout QualityConfiguration) -> Void = { _ in }, contract: DataContract? = nil) throws -> DataQualityStack {
        var configuration = QualityConfiguration()
        configure(&configuration)
        return DataQualityStack(
            configuration: configuration, store: InMemoryIdentityStore(), contract: contract, contractMode: .strict,
            application: ApplicationInfo(name: "Demo", version: "1.0"), device: device
        )
    }

    @Test func anOptedOutEventReachesNoStageAndDoesNotAdvanceTheSession() throws {
        let quality = try stack()
        let recorder = RecordingPlugin()
        let reporter = EventReporter<Onboarding>(plugins: [recorder], processors: quality.processors)
        reporter.send(name: .registration, action: .submitted)
        quality.privacy.optOut()
        reporter.send(name: .registration, action: .submitted)
        quality.privacy.optIn()
        reporter.send(name: .registration, action: .submitted)
        #expect(recorder.events.count == 2)
        #expect(quality.sessions.current.eventIndex == 2)
        #expect(!recorder.events[1].hasFlag("duplicate_id"))
        let snapshot = quality.diagnostics.snapshot()
        #expect(snapshot.count(.dropped) == 1 && snapshot.count(.sent) == 2)
    }

    @Test func theContractSeesRawValuesButNothingDownstreamDoes() throws {
        let contract = DataContract(categories: ["Onboarding": CategoryContract(fields: ["email": .mandatory(.string, format: .email)])])
        let quality = try stack(contract: contract)
        let recorder = RecordingPlugin()
        EventReporter<Onboarding>(plugins: [recorder], processors: quality.processors)
            .send(name: .registration, action: .submitted, userData: ["email": "not-an-address"])
        let event = try #require(recorder.events.first)
        #expect(event.hasFlag("bad_format"))
        #expect(event.userData["email"]?.stringValue?.hasPrefix("hmac:") == true)
        let violations = try #require(throws: ContractViolations.self) { try quality.validator?.assertNoViolations() }
        #expect(!violations.description.contains("not-an-address"))
        #expect(!quality.diagnostics.snapshot().recentIssues.contains { $0.message.contains("not-an-address") })
        #expect(quality.diagnostics.snapshot().count(.flagged) == 1)
    }

    @Test func aDuplicatedTapIsFlaggedAndStillDelivered() throws {
        let quality = try stack()
        let recorder = RecordingPlugin()
        let reporter = EventReporter<Onboarding>(plugins: [recorder], processors: quality.processors)
        reporter.send(name: .consents, action: .tapped, userData: ["marketing": false])
        reporter.send(name: .consents, action: .tapped, userData: ["marketing": false])
        #expect(recorder.events.count == 2)
        #expect(recorder.events[1].flags == [EventFlag(code: "duplicate", detail: recorder.events[0].id.uuidString.lowercased())])
    }

    @Test func sessionIndexesStayUniqueUnderConcurrentSenders() async throws {
        let quality = try stack()
        let recorder = RecordingPlugin()
        let reporter = EventReporter<Onboarding>(plugins: [recorder], processors: quality.processors)
        await withTaskGroup(of: Void.self) { group in
            for worker in 0..<4 {
                group.addTask {
                    for index in 0..<250 { reporter.send(name: .registration, action: .submitted, userData: ["w": .int(worker), "i": .int(index)]) }
                }
            }
        }
        let indexes = recorder.events.compactMap { event -> Int? in
            if case .object(let session)? = event.context["session"] { return session["eventIndex"]?.intValue }
            return nil
        }
        #expect(indexes.count == 1000)
        #expect(Set(indexes) == Set(1...1000))
    }

    @Test(.runsAlone) func theStagesAreCheapEnoughForTheSendPath() throws {
        let contract = DataContract(categories: ["Onboarding": CategoryContract(fields: ["step": .mandatory(.integer), "source": .optional(.string, allowed: ["app", "web"])])])
        let quality = try stack(contract: contract)
        let reporter = EventReporter<Onboarding>(plugins: [NoOpPlugin()], processors: quality.processors)
        let count = 10_000
        // The sends run the stages synchronously on this thread: its CPU time is their cost, and
        // it does not count the time spent waiting for a core on a loaded machine.
        let started = threadCPUSeconds()
        for index in 0..<count { reporter.send(name: .registration, action: .submitted, userData: ["step": .int(index), "source": "app"]) }
        let perEvent = (threadCPUSeconds() - started) / Double(count)
        #expect(perEvent < 0.000_5, "each event took \(perEvent * 1_000_000) µs in the stages")
        #expect(quality.diagnostics.snapshot().count(.sent) == count)
    }
}
