@testable import Analytics
@testable import DataQuality
@testable import Dispatcher
import Foundation
import Testing
import TestSupport
import Tracking

/// The lifecycle names of every Apple platform, posted into a private `NotificationCenter`:
/// what the observer hands on, once per moment, and what the runtime does with it.
@Suite("Lifecycle names on every platform")
struct LifecycleNamesTests {
    /// What an observer handed on, in order.
    final class Seen: Sendable {
        private let events = LockedValue<[LifecycleEvent]>([])
        func append(_ event: LifecycleEvent) { events.withLock { $0.append(event) } }
        var all: [LifecycleEvent] { events.withLock { $0 } }
    }

    private func observe(visible: @escaping @Sendable () -> Bool? = { nil }) -> (NotificationCenter, LifecycleObserver, Seen) {
        let center = NotificationCenter()
        let seen = Seen()
        let observer = LifecycleObserver(center: center, isApplicationVisible: visible) { seen.append($0) }
        return (center, observer, seen)
    }

    private func post(_ name: String, on center: NotificationCenter) {
        center.post(name: Notification.Name(name), object: nil)
    }

    @Test("each platform's background and foreground names mean those moments", arguments: [
        ("UIApplicationDidEnterBackgroundNotification", "UIApplicationWillEnterForegroundNotification"),
        ("WKApplicationDidEnterBackgroundNotification", "WKApplicationWillEnterForegroundNotification"),
        ("NSExtensionHostDidEnterBackgroundNotification", "NSExtensionHostWillEnterForegroundNotification"),
        ("NSApplicationDidHideNotification", "NSApplicationDidUnhideNotification"),
    ])
    func namesMeanMoments(background: String, foreground: String) {
        let (center, observer, seen) = observe()
        post(background, on: center)
        post(foreground, on: center)
        post(background, on: center)
        #expect(seen.all == [.didEnterBackground, .willEnterForeground, .didEnterBackground])
        observer.stop()
    }

    @Test("AppKit's resign-active and become-active (every app switch) are not background and foreground")
    func resignActiveIsNotBackground() {
        let (center, observer, seen) = observe()
        post("NSApplicationDidResignActiveNotification", on: center)
        post("NSApplicationWillResignActiveNotification", on: center)
        post("NSApplicationWillBecomeActiveNotification", on: center)
        post("NSApplicationDidBecomeActiveNotification", on: center)
        #expect(seen.all.isEmpty)
        observer.stop()
    }

    @Test("Mac Catalyst posting UIKit's and AppKit's names for one change delivers each moment once")
    func catalystDeliversOnce() {
        let (center, observer, seen) = observe(visible: { false })
        post("UIApplicationDidEnterBackgroundNotification", on: center)
        post("NSApplicationDidHideNotification", on: center)
        post("NSApplicationDidChangeOcclusionStateNotification", on: center)
        post("UIApplicationDidEnterBackgroundNotification", on: center)
        #expect(seen.all == [.didEnterBackground])
        post("NSApplicationDidUnhideNotification", on: center)
        post("UIApplicationWillEnterForegroundNotification", on: center)
        #expect(seen.all == [.didEnterBackground, .willEnterForeground])
        observer.stop()
    }

    @Test("AppKit's occlusion change means background when no window can be seen, foreground when one can")
    func occlusionFollowsVisibility() {
        let visible = Seen()  // reused as a flag: visible while it holds `.willEnterForeground` last
        let (center, observer, seen) = observe(visible: { visible.all.last == .willEnterForeground })
        post("NSApplicationDidChangeOcclusionStateNotification", on: center)
        visible.append(.willEnterForeground)
        post("NSApplicationDidChangeOcclusionStateNotification", on: center)
        #expect(seen.all == [.didEnterBackground, .willEnterForeground])
        observer.stop()
    }

    @Test("an occlusion change is ignored where visibility cannot be known (Linux, Mac Catalyst)")
    func occlusionUnknownIsIgnored() {
        let (center, observer, seen) = observe(visible: { nil })
        post("NSApplicationDidChangeOcclusionStateNotification", on: center)
        #expect(seen.all.isEmpty)
        observer.stop()
    }

    @Test("after stop(), nothing is handed on")
    func stopEndsObservation() {
        let (center, observer, seen) = observe()
        observer.stop()
        post("UIApplicationDidEnterBackgroundNotification", on: center)
        #expect(seen.all.isEmpty)
    }

    @Test("the runtime moves the session once for Catalyst's double background, and not on resign-active")
    func runtimeSeesEachMomentOnce() async throws {
        let directory = try TemporaryDirectory(prefix: "analytics-lifecycle-names")
        let server = try LoopbackHTTPServer()
        defer { server.stop() }
        let background = FakeBackgroundTime()
        let platform = fakePlatform(backgroundTime: background)
        let (analytics, id) = try await startObserving(directory, server, platform: platform, strategies: [.didEnterBackground])
        platform.notifications.post(name: Notification.Name("NSApplicationDidResignActiveNotification"), object: nil)
        await pause(0.2)
        #expect(!analytics.quality.sessions.current.isInBackground)
        #expect(background.grants.isEmpty && server.requestCount == 0)
        platform.notifications.post(name: Notification.Name("UIApplicationDidEnterBackgroundNotification"), object: nil)
        platform.notifications.post(name: Notification.Name("NSApplicationDidHideNotification"), object: nil)
        #expect(analytics.quality.sessions.current.isInBackground)
        #expect(await eventually { segmentMessageIDs(server) == [text(id)] })
        #expect(background.grants.count == 1, "one background drain for one moment")
        await analytics.close()
    }
}
