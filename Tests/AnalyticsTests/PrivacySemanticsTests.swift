import Analytics
@testable import DataQuality
@testable import Dispatcher
import Foundation
import TestSupport
import Testing
import Tracking

/// Opt-out and consent as the README's guarantees state them: what is deleted, what is never
/// sent, and a saved decision applied at the next start when the last run could not apply it.
@Suite("Privacy decisions: opt-out deletes the queue, saved decisions applied at start", .serialized, .runsAlone)
struct PrivacySemanticsTests {
    @Test("Opt-out deletes every queued event: after settle() nothing is stored and a flush sends nothing")
    func optOutDeletesTheQueue() async throws {
        let directory = try TemporaryDirectory(prefix: "privacy-optout")
        defer { directory.remove() }
        let server = try LoopbackHTTPServer()
        defer { server.stop() }
        let analytics = try Analytics(configuration: fastConfiguration(directory, destination: segment(server)))
        await analytics.ready()
        let shop = analytics.reporter(for: Shop.self)
        for index in 0..<20 { shop.send(name: .view, action: .open, userData: ["i": .int(index)]) }
        #expect(await persisted(analytics, 20))
        analytics.optOut()
        #expect(shop.send(name: .view, action: .open).isEmpty, "later events are dropped")
        let log = await analytics.settle()
        #expect(log.contains("opted out: every stored event deleted"), "\(log)")
        #expect(analytics.counters.store.total == 0)
        _ = await analytics.drain(timeout: 5).report
        #expect(server.requests.isEmpty, "nothing leaves the device after opt-out")
        await analytics.close()
    }

    /// Starts a runtime on `directory` with `Promo` needing consent, stores `count` held Promo
    /// events and `pending` Shop events, then saves `saved` under their keys without applying
    /// them (what a process killed right after the call leaves) and closes.
    private func leaveUnapplied(_ saved: [String: String], in directory: TemporaryDirectory, held count: Int, pending: Int) async throws {
        var configuration = fastConfiguration(directory)
        configuration.consentCategories = [Promo.category]
        let analytics = try Analytics(configuration: configuration)
        await analytics.ready()
        let promo = analytics.reporter(for: Promo.self)
        let shop = analytics.reporter(for: Shop.self)
        for index in 0..<count { promo.send(name: .shown, action: .banner, userData: ["i": .int(index)]) }
        for index in 0..<pending { shop.send(name: .view, action: .open, userData: ["i": .int(index)]) }
        #expect(await persisted(analytics, count + pending))
        for (key, value) in saved { try analytics.dispatcher.setMetadata(key, value) }
        await analytics.close()
    }

    private func restart(_ directory: TemporaryDirectory) async throws -> Analytics {
        var configuration = fastConfiguration(directory)
        configuration.consentCategories = [Promo.category]
        let analytics = try Analytics(configuration: configuration)
        await analytics.ready()
        return analytics
    }

    @Test("A denial saved but not applied deletes the held events at the next start")
    func savedDenialAppliedAtStart() async throws {
        let directory = try TemporaryDirectory(prefix: "privacy-reconcile-deny")
        defer { directory.remove() }
        try await leaveUnapplied([PrivacyControls.Key.consentPrefix + Promo.category: "denied"], in: directory, held: 300, pending: 5)
        let analytics = try await restart(directory)
        #expect(analytics.consent(for: Promo.category) == .denied)
        await analytics.settle()
        #expect(analytics.counters.store.held == 0 && analytics.counters.store.pending == 5)
        analytics.setConsent(.granted, for: Promo.category)
        await analytics.settle()
        #expect(analytics.counters.store.pending == 5, "a later grant has nothing left to release")
        await analytics.close()
    }

    @Test("A grant saved but not applied releases the held events at the next start")
    func savedGrantAppliedAtStart() async throws {
        let directory = try TemporaryDirectory(prefix: "privacy-reconcile-grant")
        defer { directory.remove() }
        try await leaveUnapplied([PrivacyControls.Key.consentPrefix + Promo.category: "granted"], in: directory, held: 300, pending: 0)
        let analytics = try await restart(directory)
        await analytics.settle()
        #expect(analytics.counters.store.held == 0 && analytics.counters.store.pending == 300)
        await analytics.close()
    }

    @Test("An opt-out saved but not applied deletes the queue at the next start")
    func savedOptOutAppliedAtStart() async throws {
        let directory = try TemporaryDirectory(prefix: "privacy-reconcile-optout")
        defer { directory.remove() }
        try await leaveUnapplied([PrivacyControls.Key.optedOut: "true"], in: directory, held: 10, pending: 10)
        let analytics = try await restart(directory)
        #expect(analytics.isOptedOut)
        await analytics.settle()
        #expect(analytics.counters.store.total == 0)
        await analytics.close()
    }

    @Test("An opt-out saved but not applied: with the boot strategy, nothing an earlier run left reaches the collector")
    func savedOptOutBeatsTheBootDelivery() async throws {
        let directory = try TemporaryDirectory(prefix: "privacy-reconcile-boot")
        defer { directory.remove() }
        let server = try LoopbackHTTPServer()
        defer { server.stop() }
        try await leaveUnapplied([PrivacyControls.Key.optedOut: "true"], in: directory, held: 0, pending: 200)
        var configuration = fastConfiguration(directory, destination: segment(server))
        configuration.strategies = [.boot]
        let analytics = try Analytics(configuration: configuration)
        await analytics.ready()
        await analytics.settle()
        try await Task.sleep(nanoseconds: 1_000_000_000)
        #expect(server.requests.isEmpty, "\(server.requests.count) requests after a saved opt-out")
        #expect(analytics.counters.store.total == 0)
        await analytics.close()
    }

    @Test("Without a saved decision, the boot strategy still delivers what an earlier run left")
    func bootDeliversOnceDecisionsAreApplied() async throws {
        let directory = try TemporaryDirectory(prefix: "privacy-boot")
        defer { directory.remove() }
        let server = try LoopbackHTTPServer()
        defer { server.stop() }
        try await leaveUnapplied([:], in: directory, held: 0, pending: 20)
        var configuration = fastConfiguration(directory, destination: segment(server))
        configuration.strategies = [.boot]
        let analytics = try Analytics(configuration: configuration)
        await analytics.ready()
        #expect(await eventually { analytics.counters.store.pending == 0 && server.requests.count > 0 })
        await analytics.close()
    }
}
