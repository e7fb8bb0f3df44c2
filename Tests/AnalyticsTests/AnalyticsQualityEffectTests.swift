import Analytics
@testable import DataQuality
@testable import Dispatcher
import Foundation
import Testing
import TestSupport
import Tracking
import TrackingTestKit

/// Each data-quality field of `AnalyticsConfiguration` takes effect in a running `Analytics`:
/// contract, consent categories, redaction, session timeouts, the duplicate window and the
/// diagnostics options.
@Suite("AnalyticsConfiguration takes effect: data quality", .runsAlone)
struct AnalyticsQualityEffectTests {
    static let contractJSON = """
    {"categories": {"Shop": {"events": [
      {"name": "pay", "action": "tap", "fields": {"total": {"type": "number", "mandatory": true}}}
    ]}}}
    """

    @Test("contract: a contract file next to the configuration file flags an event that breaks it")
    func contractFileFlagsViolations() async throws {
        let directory = try TemporaryDirectory(prefix: "analytics-effect-contract")
        try write(Self.contractJSON, to: "conf/contract.json", in: directory)
        let file = try write("""
            {"store": "events.sqlite", "contract": "contract.json", "strategies": [],
             "batch": {"flushInterval": 0}, "lifecycle": {"observeNotifications": false}, "diagnostics": {"trackAsEvents": false}}
            """, to: "conf/analytics.json", in: directory)
        let configuration = try AnalyticsConfiguration(contentsOf: file)
        let recorder = RecordingPlugin()
        let analytics = try Analytics(configuration: configuration, plugins: [recorder])
        await analytics.ready()
        #expect(analytics.quality.validator != nil)
        let shop = analytics.reporter(for: Shop.self)
        let broken = try #require(shop.send(name: .pay, action: .tap).first?.eventID)
        let valid = try #require(shop.send(name: .pay, action: .tap, userData: ["total": 9.5]).first?.eventID)
        #expect(await analytics.drain(timeout: 5).persisted)
        let records = Dictionary(uniqueKeysWithValues: try analytics.records().map { ($0.id, $0) })
        #expect(records[broken]?.flags.contains { $0.hasPrefix("missing_field") } == true, "\(records[broken]?.flags ?? [])")
        #expect(records[valid]?.flags == [])
        #expect(recorder.events.first?.hasFlag("missing_field") == true)
        #expect(analytics.diagnostics.snapshot().recentIssues.contains { $0.code == "missing_field" })
        await analytics.close()

        // Without the contract, the same event is not flagged.
        let plain = try Analytics(configuration: fastConfiguration(directory, store: "plain.sqlite"))
        await plain.ready()
        #expect(plain.quality.validator == nil)
        let id = try #require(plain.reporter(for: Shop.self).send(name: .pay, action: .tap).first?.eventID)
        #expect(await plain.drain(timeout: 5).persisted)
        #expect(try plain.records().first { $0.id == id }?.flags == [])
        await plain.close()
    }

    @Test("contract: an unreadable or invalid contract file stops the start with an error naming the field")
    func invalidContractFileIsAConfigurationError() throws {
        let directory = try TemporaryDirectory(prefix: "analytics-effect-contract-invalid")
        var configuration = fastConfiguration(directory)
        configuration.contractPath = directory.file("absent.json").path
        let missing = try #require(throws: ConfigurationError.self) { try Analytics(configuration: configuration) }
        #expect(missing.field == "contract" && missing.reason.contains("absent.json"), "\(missing)")

        configuration.contractPath = try write(#"{"categories": {"Shop": {"colour": 1}}}"#, to: "bad.json", in: directory).path
        let invalid = try #require(throws: ConfigurationError.self) { try Analytics(configuration: configuration) }
        #expect(invalid.field == "contract" && invalid.reason.contains("colour"), "\(invalid)")
    }

    @Test("consentCategories: events wait, stored and undelivered; granting releases and delivers them")
    func consentGrantedReleasesHeldEvents() async throws {
        let directory = try TemporaryDirectory(prefix: "analytics-effect-consent-grant")
        let server = try LoopbackHTTPServer()
        defer { server.stop() }
        var configuration = fastConfiguration(directory, destination: segment(server))
        configuration.consentCategories = [Promo.category]
        let analytics = try Analytics(configuration: configuration)
        await analytics.ready()
        #expect(analytics.consent(for: Promo.category) == .pending)
        #expect(analytics.consent(for: Shop.category) == .notRequired)
        let promo = analytics.reporter(for: Promo.self)
        let held = [promo.send(name: .shown, action: .banner, userData: ["i": 1]), promo.send(name: .shown, action: .banner, userData: ["i": 2])]
            .compactMap { $0.first?.eventID }
        let free = try #require(analytics.reporter(for: Shop.self).send(name: .view, action: .open).first?.eventID)
        #expect(await analytics.drain(timeout: 5).report.delivered == 1)
        #expect(segmentMessageIDs(server) == [text(free)], "only the event that needs no consent is delivered")
        #expect(analytics.counters.store.held == 2)
        #expect(try analytics.records(StoreQuery(status: .held)).map(\.id) == held)

        analytics.setConsent(.granted, for: Promo.category)
        #expect(await analytics.settle().contains("consent granted for Promo: 2 held events released"))
        #expect(await eventually { Set(segmentMessageIDs(server)) == Set(([free] + held).map(text)) })
        #expect(analytics.counters.store.held == 0)
        await analytics.close()
    }

    @Test("consentCategories: denying deletes the held events, and later ones are dropped")
    func consentDeniedDeletesHeldEvents() async throws {
        let directory = try TemporaryDirectory(prefix: "analytics-effect-consent-deny")
        var configuration = fastConfiguration(directory)
        configuration.consentCategories = [Promo.category]
        let analytics = try Analytics(configuration: configuration)
        await analytics.ready()
        let promo = analytics.reporter(for: Promo.self)
        promo.send(name: .shown, action: .banner, userData: ["i": 1])
        promo.send(name: .shown, action: .banner, userData: ["i": 2])
        #expect(await analytics.drain(timeout: 5).persisted)
        #expect(analytics.counters.store.held == 2)
        analytics.setConsent(.denied, for: Promo.category)
        #expect(await analytics.settle().contains("consent denied for Promo: 2 held events deleted"))
        #expect(analytics.counters.store.total == 0)
        #expect(promo.send(name: .shown, action: .banner, userData: ["i": 3]).isEmpty)
        #expect(analytics.diagnostics.snapshot().count(.dropped) == 1)
        await analytics.close()
    }

    @Test("redaction keys and mode: hash replaces the value (keyed per installation), remove deletes the key; other keys stay")
    func redactionKeysAndMode() async throws {
        func stored(mode: QualityConfiguration.Redaction, appID: String = "app") async throws -> UserData {
            let directory = try TemporaryDirectory(prefix: "analytics-effect-redaction")
            var configuration = fastConfiguration(directory)
            configuration.redaction = .init(keys: ["email", "iban"], mode: mode)
            configuration.appID = appID
            let analytics = try Analytics(configuration: configuration)
            await analytics.ready()
            analytics.reporter(for: Shop.self).send(
                name: .signup, action: .tap,
                userData: ["email": "ada@example.com", "iban": "DE00 1234", "password": "hunter2", "plan": "pro"])
            #expect(await analytics.drain(timeout: 5).persisted)
            let userData = try #require(try analytics.records().first).userData
            await analytics.close()
            return userData
        }
        let hashed = try await stored(mode: .hash)
        #expect(hashed["email"]?.stringValue?.hasPrefix("hmac:") == true, "\(hashed)")
        #expect(hashed["iban"]?.stringValue?.hasPrefix("hmac:") == true)
        #expect(hashed["password"] == "hunter2", "only the configured keys are redacted")
        #expect(hashed["plan"] == "pro")
        let otherSalt = try await stored(mode: .hash, appID: "other-app")
        #expect(otherSalt["email"] != hashed["email"], "each installation has its own key")

        let removed = try await stored(mode: .remove)
        #expect(removed["email"] == nil && removed["iban"] == nil)
        #expect(removed["password"] == "hunter2" && removed["plan"] == "pro")
    }

    /// The session object of an event's context.
    private func session(_ event: TrackedEvent?) -> (id: String?, index: Int?) {
        let object = event?.context["session"]?.members
        return (object?["id"]?.stringValue, object?["index"]?.intValue)
    }

    @Test("session.foregroundTimeout: inactivity that long starts a new session; a long timeout keeps it")
    func foregroundTimeoutStartsANewSession() async throws {
        for timeout in [0.3, 1800] {
            let directory = try TemporaryDirectory(prefix: "analytics-effect-session-fg")
            var configuration = fastConfiguration(directory)
            configuration.session.foregroundTimeout = timeout
            let recorder = RecordingPlugin()
            let analytics = try Analytics(configuration: configuration, plugins: [recorder])
            await analytics.ready()
            #expect(analytics.quality.sessions.current.foregroundTimeout == timeout)
            let shop = analytics.reporter(for: Shop.self)
            shop.send(name: .view, action: .open, userData: ["i": 1])
            await pause(0.5)
            shop.send(name: .view, action: .open, userData: ["i": 2])
            let (first, second) = (session(recorder.events.first), session(recorder.events.last))
            #expect(first.id != nil && first.index == 1)
            if timeout < 1 {
                #expect(second.id != first.id && second.index == 2, "a new session after \(timeout) s")
            } else {
                #expect(second.id == first.id && second.index == 1)
            }
            await analytics.close()
        }
    }

    @Test("session.backgroundTimeout: time in the background that long starts a new session")
    func backgroundTimeoutStartsANewSession() async throws {
        for timeout in [0.3, 1800] {
            let directory = try TemporaryDirectory(prefix: "analytics-effect-session-bg")
            var configuration = fastConfiguration(directory)
            configuration.session.backgroundTimeout = timeout
            let recorder = RecordingPlugin()
            let analytics = try Analytics(configuration: configuration, plugins: [recorder])
            await analytics.ready()
            #expect(analytics.quality.sessions.current.backgroundTimeout == timeout)
            #expect(analytics.quality.sessions.current.foregroundTimeout == 1800)
            let shop = analytics.reporter(for: Shop.self)
            shop.send(name: .view, action: .open, userData: ["i": 1])
            analytics.handle(.didEnterBackground)
            #expect(analytics.quality.sessions.current.isInBackground)
            await pause(0.5)
            shop.send(name: .view, action: .open, userData: ["i": 2])
            let (first, second) = (session(recorder.events.first), session(recorder.events.last))
            if timeout < 1 {
                #expect(second.id != first.id && second.index == 2, "a new session after \(timeout) s in the background")
            } else {
                #expect(second.id == first.id && second.index == 1)
            }
            await analytics.close()
        }
    }

    @Test("duplicateWindow: an identical event within the window is flagged; 0 turns it off")
    func duplicateWindowFlagsDuplicates() async throws {
        for window in [1.0, 0] {
            let directory = try TemporaryDirectory(prefix: "analytics-effect-duplicate")
            var configuration = fastConfiguration(directory)
            configuration.duplicateWindow = window
            let analytics = try Analytics(configuration: configuration)
            await analytics.ready()
            let shop = analytics.reporter(for: Shop.self)
            shop.send(name: .pay, action: .tap, userData: ["total": 3])
            let second = try #require(shop.send(name: .pay, action: .tap, userData: ["total": 3]).first?.eventID)
            #expect(await analytics.drain(timeout: 5).persisted)
            let flags = try #require(try analytics.records().first { $0.id == second }).flags
            #expect(flags.contains { $0.hasPrefix("duplicate(") } == (window > 0), "window \(window): \(flags)")
            await analytics.close()
        }
    }

    /// Sends the same event `count` times, `spacing` seconds apart, and returns the library's own
    /// events the plugin saw (each repeat is a duplicate: one diagnostic issue).
    private func internalEvents(
        trackAsEvents: Bool, burst: Int = 5, perMinute: Double = 6, count: Int, spacing: TimeInterval = 0
    ) async throws -> [TrackedEvent] {
        let directory = try TemporaryDirectory(prefix: "analytics-effect-diagnostics")
        var configuration = fastConfiguration(directory)
        configuration.diagnostics = .init(trackAsEvents: trackAsEvents, burst: burst, perMinute: perMinute)
        let recorder = RecordingPlugin()
        let analytics = try Analytics(configuration: configuration, plugins: [recorder])
        await analytics.ready()
        let shop = analytics.reporter(for: Shop.self)
        for index in 0..<count {
            if index > 0, spacing > 0 { await pause(spacing) }
            shop.send(name: .pay, action: .tap, userData: ["total": 3])
        }
        #expect(await analytics.drain(timeout: 5).persisted)
        let stored = try analytics.records().filter { $0.category == TrackingInternal.category }
        let seen = recorder.events(of: TrackingInternal.self)
        #expect(stored.count == seen.count, "the library's own events are stored too")
        #expect(analytics.diagnostics.snapshot().recentIssues.filter { $0.code == "duplicate" }.count == count - 1)
        await analytics.close()
        return seen
    }

    @Test("diagnostics.trackAsEvents: a diagnostic becomes a TrackingInternal event, or not")
    func diagnosticsTrackAsEvents() async throws {
        let tracked = try await internalEvents(trackAsEvents: true, count: 2)
        #expect(tracked.count == 1)
        let event = try #require(tracked.first)
        #expect(event.category == "Tracking" && event.name == "error" && event.action == "validation")
        #expect(event.userData["code"] == "duplicate")
        #expect(try await internalEvents(trackAsEvents: false, count: 2).isEmpty)
    }

    @Test("diagnostics.burst and perMinute: the library's own events are rate limited")
    func diagnosticsRateLimit() async throws {
        #expect(try await internalEvents(trackAsEvents: true, burst: 2, perMinute: 0, count: 6).count == 2)
        #expect(try await internalEvents(trackAsEvents: true, burst: 1, perMinute: 0, count: 4, spacing: 0.05).count == 1)
        #expect(try await internalEvents(trackAsEvents: true, burst: 1, perMinute: 60_000, count: 4, spacing: 0.05).count == 3,
                "refilled at 1000 a second, every issue 50 ms apart is sent")
    }
}
