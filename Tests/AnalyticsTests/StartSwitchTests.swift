@testable import Analytics
import DataQuality
@testable import Dispatcher
import Foundation
import Testing
import TestSupport
import Tracking
import TrackingTestKit

/// The end of a start made while the store opened in the background: a privacy or identity
/// change made while the real stack replaces the provisional one applies to the real one; reads
/// and `init` do not depend on when a background open fails; a diagnostic raised on the opening
/// queue never waits for room in a full gate.
@Suite(.runsAlone)
struct StartSwitchTests {
    typealias HeldOpen = AnalyticsBackgroundOpenTests.HeldOpen

    /// Starts a runtime on `configuration` with the open held, releases it, and runs `change`
    /// on another thread while the start is held between making the real stack and installing it.
    private func changeDuringTheSwitch(
        _ configuration: AnalyticsConfiguration, recorder: RecordingPlugin, _ change: @escaping @Sendable (Analytics) async -> Void
    ) async throws -> Analytics {
        let held = HeldOpen()
        let analytics = try Dispatcher.$beforeBackgroundOpen.withValue(held.hold) {
            try Analytics(configuration: configuration, plugins: [recorder])
        }
        let inWindow = DispatchSemaphore(value: 0)
        let leave = DispatchSemaphore(value: 0)
        analytics.gate.whileSwitching.withLock { $0 = { inWindow.signal(); _ = leave.wait(timeout: .now() + 20) } }
        held.release()
        let reached = await Task.detached { inWindow.wait(timeout: .now() + 20) == .success }.value
        #expect(reached, "the start never reached the switch")
        let changing = Task.detached { await change(analytics) }
        try await Task.sleep(nanoseconds: 300_000_000)
        leave.signal()
        await changing.value
        #expect(await analytics.ready() == .available)
        return analytics
    }

    @Test("An opt-out made while the real stack replaces the provisional one applies to the real one: later events are not sent")
    func optOutDuringTheSwitch() async throws {
        let directory = try TemporaryDirectory(prefix: "switch-optout")
        defer { directory.remove() }
        let recorder = RecordingPlugin()
        let analytics = try await changeDuringTheSwitch(fastConfiguration(directory), recorder: recorder) { $0.optOut() }
        #expect(analytics.isOptedOut)
        analytics.reporter(for: Shop.self).send(name: .view, action: .open, userData: ["after": 1])
        await analytics.settle()
        #expect(await analytics.drain(timeout: 30).persisted)
        #expect(recorder.events.isEmpty, "\(recorder.events.map(\.userData))")
        #expect(analytics.counters.store.total == 0, "\(analytics.counters.store)")
        await analytics.close()
    }

    @Test("A consent denial made during the switch applies to the real stack")
    func denialDuringTheSwitch() async throws {
        let directory = try TemporaryDirectory(prefix: "switch-deny")
        defer { directory.remove() }
        var configuration = fastConfiguration(directory)
        configuration.consentCategories = [Promo.category]
        let recorder = RecordingPlugin()
        let analytics = try await changeDuringTheSwitch(configuration, recorder: recorder) { $0.setConsent(.denied, for: Promo.category) }
        #expect(analytics.consent(for: Promo.category) == .denied)
        analytics.reporter(for: Promo.self).send(name: .shown, action: .banner, userData: ["after": 1])
        await analytics.settle()
        #expect(await analytics.drain(timeout: 30).persisted)
        #expect(analytics.counters.store.held == 0 && analytics.counters.store.pending == 0, "\(analytics.counters.store)")
        await analytics.close()
    }

    @Test("A log-in made during the switch is the real stack's: later events carry the user")
    func logInDuringTheSwitch() async throws {
        let directory = try TemporaryDirectory(prefix: "switch-login")
        defer { directory.remove() }
        let recorder = RecordingPlugin()
        let analytics = try await changeDuringTheSwitch(fastConfiguration(directory), recorder: recorder) { $0.logIn(userID: "u-9") }
        #expect(analytics.userID == "u-9")
        #expect(analytics.quality.identity.userID == "u-9")
        await analytics.close()
    }

    @Test("A purge made during the switch gives the real stack a new installation id")
    func purgeDuringTheSwitch() async throws {
        let directory = try TemporaryDirectory(prefix: "switch-purge")
        defer { directory.remove() }
        let first = try Analytics(configuration: fastConfiguration(directory))
        let old = first.installationID
        await first.close()
        let recorder = RecordingPlugin()
        let analytics = try await changeDuringTheSwitch(fastConfiguration(directory), recorder: recorder) { await $0.purge() }
        #expect(analytics.installationID != old)
        await analytics.close()
    }

    /// Replaces the folder of the store with a file: every open of the store fails from then on.
    private static func breakFolder(_ directory: TemporaryDirectory) {
        try? FileManager.default.removeItem(at: directory.file("sub"))
        _ = FileManager.default.createFile(atPath: directory.file("sub").path, contents: Data("not a folder".utf8))
    }

    @Test("A background open failing before init reads the storage does not make init throw; it is retried")
    func initDoesNotThrowForABackgroundFailure() async throws {
        let directory = try TemporaryDirectory(prefix: "switch-init-fails")
        defer { directory.remove() }
        let configuration = fastConfiguration(directory, store: "sub/events.sqlite")
        let analytics = try Dispatcher.$beforeBackgroundOpen.withValue({ Self.breakFolder(directory) }) {
            // The open has failed before init reads the storage.
            try Analytics.$afterDispatcherStarts.withValue({ dispatcher in
                let deadline = Date(timeIntervalSinceNow: 10)
                while dispatcher.storage == .opening, Date() < deadline { Thread.sleep(forTimeInterval: 0.01) }
            }) {
                try Analytics(configuration: configuration)
            }
        }
        guard case .unavailable = analytics.dispatcher.storage else {
            Issue.record("expected unavailable, got \(analytics.dispatcher.storage)")
            return
        }
        #expect(analytics.isWaitingForStorage)
        let messages = analytics.diagnostics.snapshot().recentIssues.map(\.message)
        #expect(messages.contains { $0.contains("cannot be opened") }, "\(messages)")
        await analytics.close(timeout: 1)
    }

    @Test("Reading the identity while the store opens returns as soon as the open fails")
    func readsReturnWhenTheOpenFails() async throws {
        let directory = try TemporaryDirectory(prefix: "switch-read-fails")
        defer { directory.remove() }
        let configuration = fastConfiguration(directory, store: "sub/events.sqlite")
        let analytics = try Dispatcher.$beforeBackgroundOpen.withValue({
            Thread.sleep(forTimeInterval: 0.3)
            Self.breakFolder(directory)
        }) {
            try Analytics(configuration: configuration)
        }
        #expect(analytics.dispatcher.storage == .opening)
        let began = Date()
        #expect(analytics.userID == nil)
        #expect(!analytics.isOptedOut)
        let waited = Date().timeIntervalSince(began)
        #expect(waited < 5, "the reads waited \(waited) s for an open that had failed")
        await analytics.close(timeout: 1)
    }

    @Test("A storage diagnostic raised on the opening queue with the gate full does not hold the open")
    func diagnosticDuringTheOpenDoesNotWaitForRoom() async throws {
        let directory = try TemporaryDirectory(prefix: "switch-diagnostic")
        defer { directory.remove() }
        var configuration = fastConfiguration(directory)
        configuration.diagnostics.trackAsEvents = true
        configuration.batch.overflowQueueSize = 5
        let held = HeldOpen()
        let box = LockedValue<Analytics?>(nil)
        let hold = held.hold
        let analytics = try Dispatcher.$beforeBackgroundOpen.withValue({
            hold()
            box.withLock { $0 }?.diagnostics.record(.storage, code: "test", message: "raised while opening")
        }) {
            try Analytics(configuration: configuration)
        }
        box.withLock { $0 = analytics }
        let shop = analytics.reporter(for: Shop.self)
        for index in 0..<5 { shop.send(name: .view, action: .open, userData: ["i": .int(index)]) }
        let began = Date()
        held.release()
        #expect(await analytics.ready() == .available)
        let waited = Date().timeIntervalSince(began)
        #expect(waited < 5, "the open waited \(waited) s for room in the gate")
        #expect(analytics.gate.refusedCount >= 1)
        box.withLock { $0 = nil }
        await analytics.close()
    }
}
