import Analytics
@testable import DataQuality
@testable import Dispatcher
import Foundation
import Testing
import TestSupport
import Tracking

/// `lifecycle.observeNotifications`: the app's notifications, posted by name on
/// `NotificationCenter.default`, drive the session and the delivery strategies.
///
/// Serialized: these tests post on the process-wide default center, so they must not overlap
/// one another. Every other test's configuration turns observation off, so they are not
/// disturbed by these posts, and these are not disturbed by theirs (they post none).
@Suite("Lifecycle notifications", .serialized, .runsAlone)
struct AnalyticsLifecycleNotificationTests {
    static let didEnterBackground = Notification.Name("UIApplicationDidEnterBackgroundNotification")
    static let willEnterForeground = Notification.Name("UIApplicationWillEnterForegroundNotification")
    static let didResignActive = Notification.Name("NSApplicationDidResignActiveNotification")
    static let didHide = Notification.Name("NSApplicationDidHideNotification")
    static let didUnhide = Notification.Name("NSApplicationDidUnhideNotification")

    private func post(_ name: Notification.Name) { NotificationCenter.default.post(name: name, object: nil) }

    /// A running `Analytics` observing (or not) the notifications, delivering to `server` on
    /// the given strategies only, with one event pending.
    private func start(
        _ directory: TemporaryDirectory, _ server: LoopbackHTTPServer, observe: Bool, strategies: BatchDispatchStrategy
    ) async throws -> (Analytics, UUID) {
        var configuration = fastConfiguration(directory, destination: segment(server))
        configuration.lifecycle.observeNotifications = observe
        configuration.strategies = strategies
        let analytics = try Analytics(configuration: configuration)
        await analytics.ready()
        let id = try #require(analytics.reporter(for: Shop.self).send(name: .view, action: .open).first?.eventID)
        #expect(await persisted(analytics, 1))
        return (analytics, id)
    }

    @Test("UIKit's didEnterBackground notification triggers a delivery with the didEnterBackground strategy, and moves the session")
    func uiKitDidEnterBackgroundDelivers() async throws {
        let directory = try TemporaryDirectory(prefix: "analytics-notifications-uikit")
        let server = try LoopbackHTTPServer()
        defer { server.stop() }
        let (analytics, id) = try await start(directory, server, observe: true, strategies: [.didEnterBackground])
        #expect(server.requestCount == 0)
        post(Self.didEnterBackground)
        #expect(await eventually { segmentMessageIDs(server) == [text(id)] })
        #expect(analytics.quality.sessions.current.isInBackground)
        post(Self.willEnterForeground)
        #expect(!analytics.quality.sessions.current.isInBackground)
        await analytics.close()
    }

    @Test("UIKit's willEnterForeground notification triggers a delivery with the willEnterForeground strategy")
    func uiKitWillEnterForegroundDelivers() async throws {
        let directory = try TemporaryDirectory(prefix: "analytics-notifications-foreground")
        let server = try LoopbackHTTPServer()
        defer { server.stop() }
        let (analytics, id) = try await start(directory, server, observe: true, strategies: [.willEnterForeground])
        post(Self.didEnterBackground)
        await pause(0.2)
        #expect(server.requestCount == 0, "didEnterBackground is not a strategy here")
        post(Self.willEnterForeground)
        #expect(await eventually { segmentMessageIDs(server) == [text(id)] })
        await analytics.close()
    }

    @Test("AppKit's hide and unhide notifications mean background and foreground; resign-active does not")
    func appKitNotifications() async throws {
        let directory = try TemporaryDirectory(prefix: "analytics-notifications-appkit")
        let server = try LoopbackHTTPServer()
        defer { server.stop() }
        let (analytics, id) = try await start(directory, server, observe: true, strategies: [.didEnterBackground])
        post(Self.didResignActive)
        await pause(0.2)
        #expect(server.requestCount == 0, "an app switch is not the background")
        #expect(!analytics.quality.sessions.current.isInBackground)
        post(Self.didHide)
        #expect(await eventually { segmentMessageIDs(server) == [text(id)] })
        #expect(analytics.quality.sessions.current.isInBackground)
        post(Self.didUnhide)
        #expect(!analytics.quality.sessions.current.isInBackground)
        await analytics.close()
    }

    @Test("With observeNotifications off, the notifications do nothing")
    func observationOff() async throws {
        let directory = try TemporaryDirectory(prefix: "analytics-notifications-off")
        let server = try LoopbackHTTPServer()
        defer { server.stop() }
        let (analytics, _) = try await start(directory, server, observe: false, strategies: [.didEnterBackground, .willEnterForeground])
        post(Self.didEnterBackground)
        post(Self.didResignActive)
        await pause(0.4)
        #expect(server.requestCount == 0)
        #expect(!analytics.quality.sessions.current.isInBackground)
        #expect(analytics.counters.store.pending == 1)
        await analytics.close()
    }

    @Test("After close(), the notifications are no longer observed")
    func closeStopsObserving() async throws {
        let directory = try TemporaryDirectory(prefix: "analytics-notifications-closed")
        let server = try LoopbackHTTPServer()
        defer { server.stop() }
        let (analytics, _) = try await start(directory, server, observe: true, strategies: [.didEnterBackground])
        await analytics.close()
        post(Self.didEnterBackground)
        await pause(0.3)
        #expect(server.requestCount == 0)
        #expect(!analytics.quality.sessions.current.isInBackground)
    }
}
