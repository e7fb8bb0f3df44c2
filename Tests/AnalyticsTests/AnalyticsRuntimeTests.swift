import Analytics
@testable import DataQuality
@testable import Dispatcher
import Foundation
import Testing
import TestSupport
import Tracking
import TrackingTestKit

/// The runtime's own surface: sending, identity, privacy, delivery control and inspection.
@Suite("Analytics runtime", .runsAlone)
struct AnalyticsRuntimeTests {
    @Test("reporter(for:): events reach the plugins and the store, hydrated and identified")
    func reporterReachesPluginsAndStore() async throws {
        let directory = try TemporaryDirectory(prefix: "analytics-runtime-reporter")
        let recorder = RecordingPlugin()
        let analytics = try Analytics(configuration: fastConfiguration(directory), plugins: [recorder])
        await analytics.ready()
        let receipts = analytics.reporter(for: Shop.self).send(name: .pay, action: .tap, userData: ["total": 12])
        #expect(receipts.map(\.plugin) == ["recording", "dispatcher"])
        let event = try #require(recorder.events.first)
        #expect(event.category == "Shop" && event.name == "pay" && event.action == "tap")
        #expect(event.context["installationId"] == .string(text(analytics.installationID)))
        #expect(event.context["session"]?.members?["index"] == 1)
        #expect(event.context["configHash"] == .string(analytics.configuration.hash))
        #expect(event.context["app"] != nil && event.context["library"] != nil)

        #expect(await analytics.drain(timeout: 5).persisted)
        let record = try #require(try analytics.records().first)
        #expect(record.id == event.id && record.category == "Shop" && record.name == "pay" && record.action == "tap")
        #expect(record.status == .pending && record.attempts == 0)
        #expect(record.userData["total"] == 12)
        #expect(record.context["installationId"] == .string(text(analytics.installationID)))
        #expect(analytics.counters.sent == 1 && analytics.counters.persisted == 1)
        await analytics.close()
    }

    @Test("logIn and logOut change the userId of stored events; the identity outlives a restart")
    func logInAndOut() async throws {
        let directory = try TemporaryDirectory(prefix: "analytics-runtime-identity")
        let configuration = fastConfiguration(directory)
        let analytics = try Analytics(configuration: configuration)
        await analytics.ready()
        let shop = analytics.reporter(for: Shop.self)
        let anonymous = try #require(shop.send(name: .view, action: .open, userData: ["i": 1]).first?.eventID)
        analytics.logIn(userID: "user-42")
        #expect(analytics.userID == "user-42")
        let loggedIn = try #require(shop.send(name: .view, action: .open, userData: ["i": 2]).first?.eventID)
        analytics.logOut()
        #expect(analytics.userID == nil)
        let loggedOut = try #require(shop.send(name: .view, action: .open, userData: ["i": 3]).first?.eventID)
        #expect(await analytics.drain(timeout: 5).persisted)
        let contexts = Dictionary(uniqueKeysWithValues: try analytics.records().map { ($0.id, $0.context) })
        #expect(contexts[anonymous]?["userId"] == nil)
        #expect(contexts[loggedIn]?["userId"] == "user-42")
        #expect(contexts[loggedOut]?["userId"] == nil)
        analytics.logIn(userID: "user-7")
        let installation = analytics.installationID
        await analytics.close()

        let again = try Analytics(configuration: configuration)
        await again.ready()
        #expect(again.userID == "user-7")
        #expect(again.installationID == installation)
        await again.close()
    }

    @Test("optOut drops every later event and counts it; optIn resumes")
    func optOutAndIn() async throws {
        let directory = try TemporaryDirectory(prefix: "analytics-runtime-optout")
        let recorder = RecordingPlugin()
        let analytics = try Analytics(configuration: fastConfiguration(directory), plugins: [recorder])
        await analytics.ready()
        let shop = analytics.reporter(for: Shop.self)
        analytics.optOut()
        #expect(analytics.isOptedOut)
        #expect(shop.send(name: .view, action: .open, userData: ["i": 1]).isEmpty)
        #expect(shop.send(name: .view, action: .open, userData: ["i": 2]).isEmpty)
        #expect(analytics.diagnostics.snapshot().count(.dropped) == 2)
        #expect(recorder.events.isEmpty, "no plugin sees an opted-out event")
        analytics.optIn()
        #expect(!analytics.isOptedOut)
        let id = try #require(shop.send(name: .view, action: .open, userData: ["i": 3]).first?.eventID)
        #expect(await analytics.drain(timeout: 5).persisted)
        #expect(try analytics.records().map(\.id) == [id])
        #expect(analytics.diagnostics.snapshot().count(.dropped) == 2)
        await analytics.close()
    }

    @Test("purge deletes the stored events and the identifiers")
    func purgeDeletesEventsAndIdentifiers() async throws {
        let directory = try TemporaryDirectory(prefix: "analytics-runtime-purge")
        var configuration = fastConfiguration(directory)
        configuration.consentCategories = [Promo.category]
        let analytics = try Analytics(configuration: configuration)
        await analytics.ready()
        analytics.logIn(userID: "user-42")
        analytics.setConsent(.granted, for: Promo.category)
        let installation = analytics.installationID
        let shop = analytics.reporter(for: Shop.self)
        for index in 0..<3 { shop.send(name: .view, action: .open, userData: ["i": .int(index)]) }
        #expect(await analytics.drain(timeout: 5).persisted)
        let store = try #require(analytics.dispatcher.store)
        #expect(try store.metadata(Identity.Key.userID) == "user-42")
        #expect(analytics.counters.store.pending == 3)

        await analytics.purge()
        let log = await analytics.settle()
        #expect(log.last == "purged: every stored event deleted", "\(log)")
        #expect(analytics.counters.store.total == 0)
        #expect(try analytics.records().isEmpty)
        #expect(analytics.userID == nil)
        #expect(try store.metadata(Identity.Key.userID) == nil)
        #expect(try store.metadata(Identity.Key.installationID) == nil)
        #expect(try store.metadata(PrivacyControls.Key.consentPrefix + Promo.category) == nil)
        #expect(analytics.consent(for: Promo.category) == .pending)
        #expect(analytics.installationID != installation, "a new installation id after a purge")
        await analytics.close()
    }

    @Test("Events sent after purge() returns are kept, with the new installation id, across a restart")
    func eventsAfterPurgeAreKept() async throws {
        let directory = try TemporaryDirectory(prefix: "analytics-runtime-purge-after")
        let configuration = fastConfiguration(directory)
        let analytics = try Analytics(configuration: configuration)
        await analytics.ready()
        let shop = analytics.reporter(for: Shop.self)
        shop.send(name: .view, action: .open, userData: ["i": 1])
        #expect(await analytics.drain(timeout: 5).persisted)
        await analytics.purge()
        let after = try #require(shop.send(name: .view, action: .open, userData: ["i": 2]).first?.eventID)
        let installation = analytics.installationID
        await analytics.settle()
        #expect(await analytics.drain(timeout: 5).persisted)
        #expect(try analytics.records().map(\.id) == [after])
        await analytics.close()

        let again = try Analytics(configuration: configuration)
        await again.ready()
        #expect(again.installationID == installation, "the installation id the later events carry is the one kept")
        #expect(try again.records().map(\.id) == [after])
        await again.close()
    }

    @Test("setConsent and settle(): one log line per decision applied")
    func settleReportsEachDecision() async throws {
        let directory = try TemporaryDirectory(prefix: "analytics-runtime-settle")
        var configuration = fastConfiguration(directory)
        configuration.consentCategories = [Promo.category, "Ads"]
        let analytics = try Analytics(configuration: configuration)
        await analytics.ready()
        #expect(await analytics.settle().isEmpty)
        analytics.reporter(for: Promo.self).send(name: .shown, action: .banner)
        #expect(await analytics.drain(timeout: 5).persisted)
        analytics.setConsent(.granted, for: Promo.category)
        analytics.setConsent(.denied, for: "Ads")
        let log = await analytics.settle()
        #expect(log == ["consent granted for Promo: 1 held events released", "consent denied for Ads: 0 held events deleted"])
        #expect(analytics.consent(for: Promo.category) == .granted && analytics.consent(for: "Ads") == .denied)
        #expect(analytics.counters.store.pending == 1 && analytics.counters.store.held == 0)
        await analytics.close()
    }

    @Test("Privacy decisions apply to the stored events in the order they were made")
    func decisionsApplyInOrder() async throws {
        let directory = try TemporaryDirectory(prefix: "analytics-runtime-order")
        let server = try LoopbackHTTPServer()
        defer { server.stop() }
        var configuration = fastConfiguration(directory, destination: segment(server))
        configuration.consentCategories = [Promo.category]
        let analytics = try Analytics(configuration: configuration)
        await analytics.ready()
        let promo = analytics.reporter(for: Promo.self)
        for index in 0..<3 { promo.send(name: .shown, action: .banner, userData: ["i": .int(index)]) }
        #expect(await persisted(analytics, 3))
        // Denied, then granted: what was held when the user said no is deleted, never delivered.
        analytics.setConsent(.denied, for: Promo.category)
        analytics.setConsent(.granted, for: Promo.category)
        let log = await analytics.settle()
        #expect(log == ["consent denied for Promo: 3 held events deleted", "consent granted for Promo: 0 held events released"])
        #expect(await analytics.drain(timeout: 5).report.delivered == 0)
        #expect(server.requestCount == 0)
        #expect(analytics.counters.store.total == 0)
        await analytics.close()
    }

    @Test("handle(.didEnterBackground) moves the session to the background and delivers with its strategy")
    func handleDidEnterBackground() async throws {
        let directory = try TemporaryDirectory(prefix: "analytics-runtime-handle")
        let server = try LoopbackHTTPServer()
        defer { server.stop() }
        var configuration = fastConfiguration(directory, destination: segment(server))
        configuration.strategies = [.didEnterBackground]
        let analytics = try Analytics(configuration: configuration)
        await analytics.ready()
        let id = try #require(analytics.reporter(for: Shop.self).send(name: .view, action: .open).first?.eventID)
        #expect(await persisted(analytics, 1))
        await pause(0.1)
        #expect(server.requestCount == 0)
        analytics.handle(.didEnterBackground)
        #expect(analytics.quality.sessions.current.isInBackground)
        #expect(await eventually { segmentMessageIDs(server) == [text(id)] })
        analytics.handle(.willEnterForeground)
        #expect(!analytics.quality.sessions.current.isInBackground)
        await analytics.close()
    }

    @Test("records(): status filter, timeline and paging")
    func recordsForTheMonitor() async throws {
        let directory = try TemporaryDirectory(prefix: "analytics-runtime-records")
        var configuration = fastConfiguration(directory)
        configuration.consentCategories = [Promo.category]
        let analytics = try Analytics(configuration: configuration)
        await analytics.ready()
        let shop = analytics.reporter(for: Shop.self)
        let ids = (0..<3).compactMap { shop.send(name: .view, action: .open, userData: ["i": .int($0)]).first?.eventID }
        let held = try #require(analytics.reporter(for: Promo.self).send(name: .shown, action: .banner).first?.eventID)
        #expect(await analytics.drain(timeout: 5).persisted)
        #expect(try analytics.records().map(\.id) == ids + [held])
        #expect(try analytics.records(StoreQuery(status: .pending)).map(\.id) == ids)
        #expect(try analytics.records(StoreQuery(status: .held)).map(\.id) == [held])
        #expect(try analytics.records(StoreQuery(limit: 2, offset: 1)).map(\.id) == Array(ids[1...2]))
        #expect(try analytics.records().first?.timeline?.contains { $0.kind == .persisted } == true)
        await analytics.close()
    }

    @Test("A second Analytics on the same store is refused with StoreError.inUse; after close it may open")
    func secondRuntimeOnTheSameStore() async throws {
        let directory = try TemporaryDirectory(prefix: "analytics-runtime-inuse")
        let configuration = fastConfiguration(directory)
        let first = try Analytics(configuration: configuration)
        await first.ready()
        #expect {
            _ = try Analytics(configuration: configuration)
        } throws: { error in
            guard case StoreError.inUse(let path, _) = error else { return false }
            return path.hasSuffix("events.sqlite")
        }
        await first.close()
        let second = try Analytics(configuration: configuration)
        await second.ready()
        await second.close()
    }
}
