@testable import DataQuality
@testable import Dispatcher
import Foundation
import TestSupport
import Testing
import Tracking

/// Consent and purge across the data-quality stages and the Dispatcher's store.
@Suite("Privacy through the Dispatcher", .serialized, .runsAlone)
struct PrivacyIntegrationTests {
    /// A stack whose identifiers live in the store's metadata, as the demo wires it.
    private func stack(for dispatcher: Dispatcher, consent: [String]) throws -> DataQualityStack {
        let store = try #require(dispatcher.store)
        let configuration = QualityConfiguration(consentCategories: consent)
        let identity = ClosureIdentityStore(
            get: { try? store.metadata($0) }, set: { try store.setMetadata($0, $1) }, remove: { try store.setMetadata($0, nil) })
        return DataQualityStack(configuration: configuration, store: identity)
    }

    /// A Dispatcher on `directory` delivering to `server`, the quality stages over its store, and
    /// a reporter through both: the app's wiring.
    private func pipeline(
        _ directory: TemporaryDirectory, _ server: LoopbackHTTPServer, consent: [String]
    ) throws -> (dispatcher: Dispatcher, quality: DataQualityStack, reporter: EventReporter<Checkout>) {
        let dispatcher = try makeDispatcher(directory, server: server)
        let quality = try stack(for: dispatcher, consent: consent)
        return (dispatcher, quality, EventReporter<Checkout>(plugins: [dispatcher], processors: quality.processors))
    }

    @Test("Events that need consent are held in the store, not delivered, until consent is granted; then delivered")
    func holdThenRelease() async throws {
        let directory = try TemporaryDirectory(prefix: "privacy-hold")
        defer { directory.remove() }
        let server = try LoopbackHTTPServer()
        defer { server.stop() }
        let (dispatcher, quality, reporter) = try pipeline(directory, server, consent: [Checkout.category])
        let id = try #require(reporter.send(name: .view, action: .open).first?.eventID)
        await dispatcher.drain(timeout: 10)
        #expect(dispatcher.counters.store.held == 1)
        #expect(segmentMessageIDs(server).isEmpty, "a held event is not delivered")

        quality.privacy.setConsent(.granted, for: Checkout.category)
        #expect(try await dispatcher.releaseHeld(category: Checkout.category) == 1)
        await dispatcher.drain(timeout: 10)
        #expect(segmentMessageIDs(server) == [id.uuidString.lowercased()])
        #expect(dispatcher.counters.store.total == 0)
        await dispatcher.close()
    }

    @Test("Denied consent deletes the held events; later events of that category are not stored")
    func holdThenDeny() async throws {
        let directory = try TemporaryDirectory(prefix: "privacy-deny")
        defer { directory.remove() }
        let server = try LoopbackHTTPServer()
        defer { server.stop() }
        let (dispatcher, quality, reporter) = try pipeline(directory, server, consent: [Checkout.category])
        reporter.send(name: .view, action: .open)
        reporter.send(name: .view, action: .open)
        _ = await dispatcher.drain(timeout: 10)
        #expect(dispatcher.counters.store.held == 2)
        quality.privacy.setConsent(.denied, for: Checkout.category)
        #expect(try await dispatcher.deleteHeld(category: Checkout.category) == 2)
        #expect(reporter.send(name: .view, action: .open).isEmpty, "dropped by the privacy gate")
        await dispatcher.drain(timeout: 10)
        #expect(dispatcher.counters.store.total == 0)
        #expect(segmentMessageIDs(server).isEmpty)
        await dispatcher.close()
    }

    @Test("Opt-out persists across a restart and stops events at once; purge leaves no rows and no identifiers")
    func optOutAndPurge() async throws {
        let directory = try TemporaryDirectory(prefix: "privacy-purge")
        defer { directory.remove() }
        let server = try LoopbackHTTPServer()
        defer { server.stop() }
        var (dispatcher, quality, reporter) = try pipeline(directory, server, consent: [])
        let installation = quality.identity.installationID
        quality.identity.logIn(userID: "user-1")
        for _ in 0..<5 { reporter.send(name: .pay, action: .tap) }
        quality.privacy.optOut()
        #expect(reporter.send(name: .pay, action: .tap).isEmpty, "opt-out takes effect at once")
        await dispatcher.close()

        (dispatcher, quality, reporter) = try pipeline(directory, server, consent: [])
        #expect(quality.privacy.isOptedOut, "opt-out survived the restart")
        #expect(reporter.send(name: .pay, action: .tap).isEmpty)
        #expect(quality.identity.installationID == installation, "the installation id survived the restart")
        #expect(dispatcher.counters.store.pending == 5)

        quality.purge()
        try await dispatcher.purge()
        let store = try #require(dispatcher.store)
        #expect(store.counts().total == 0)
        #expect(try dispatcher.records(StoreQuery(status: nil)).isEmpty)
        #expect(try store.metadata(Identity.Key.installationID) == nil)
        #expect(try store.metadata(Identity.Key.userID) == nil)
        #expect(quality.identity.installationID != installation, "a purge starts a new installation")
        await dispatcher.close()
    }
}
