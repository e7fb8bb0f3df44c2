@testable import Analytics
@testable import DataQuality
@testable import Dispatcher
import Foundation
import Testing
import TestSupport
import Tracking

/// Background time around the background drain: always ended exactly once, whichever of the
/// drain, the system's expiry and `close()` comes first.
@Suite("Background time around the drain", .runsAlone)
struct BackgroundDrainTests {
    /// A drain that returns once opened.
    final class Gate: Sendable {
        private let isOpen = LockedValue(false)
        private let entered = LockedValue(false)
        func open() { isOpen.withLock { $0 = true } }
        var hasEntered: Bool { entered.withLock { $0 } }
        func pass() async {
            entered.withLock { $0 = true }
            while !isOpen.withLock({ $0 }) { try? await Task.sleep(nanoseconds: 5_000_000) }
        }
    }

    @Test("the drain finishing first ends the grant once; a later expiry does not end it again")
    func drainFinishesFirst() async throws {
        let time = FakeBackgroundTime()
        let drain = BackgroundDrain(provider: time)
        drain.run {}
        let grant = try #require(time.grants.first)
        #expect(grant.reason == BackgroundDrain.reason)
        #expect(await eventually { grant.endCount == 1 })
        grant.expire()
        await pause(0.05)
        #expect(grant.endCount == 1)
        #expect(drain.heldCount == 0)
    }

    @Test("the time expiring first ends the grant at once; the drain finishing later does not end it again")
    func expiryFirst() async throws {
        let time = FakeBackgroundTime()
        let drain = BackgroundDrain(provider: time)
        let gate = Gate()
        drain.run { await gate.pass() }
        let grant = try #require(time.grants.first)
        #expect(await eventually { gate.hasEntered })
        #expect(grant.endCount == 0, "held while the drain runs")
        grant.expire()
        #expect(grant.endCount == 1)
        gate.open()
        await pause(0.1)
        #expect(grant.endCount == 1)
    }

    @Test("an expiry that comes while the time is being granted still ends it exactly once")
    func expiryWhileBeginning() async throws {
        let time = FakeBackgroundTime(expiresWhileBeginning: true)
        let drain = BackgroundDrain(provider: time)
        let gate = Gate()
        drain.run { await gate.pass() }
        let grant = try #require(time.grants.first)
        #expect(grant.endCount == 1, "ended at once, not when the drain finishes")
        gate.open()
        await pause(0.1)
        #expect(grant.endCount == 1)
    }

    @Test("the drain and the expiry racing end each grant exactly once")
    func drainAndExpiryRace() async throws {
        let time = FakeBackgroundTime()
        let drain = BackgroundDrain(provider: time)
        for _ in 0..<300 { drain.run {} }
        let grants = time.grants
        DispatchQueue.concurrentPerform(iterations: grants.count) { grants[$0].expire() }
        #expect(await eventually { drain.heldCount == 0 })
        await pause(0.1)
        #expect(grants.count == 300)
        #expect(grants.allSatisfy { $0.endCount == 1 }, "ends: \(Set(grants.map(\.endCount)))")
    }

    @Test("close() meanwhile ends the grant once; the expiry and the drain ending later do not; no drain runs after")
    func closeMeanwhile() async throws {
        let time = FakeBackgroundTime()
        let drain = BackgroundDrain(provider: time)
        let gate = Gate()
        drain.run { await gate.pass() }
        let grant = try #require(time.grants.first)
        drain.stop()
        #expect(grant.endCount == 1)
        grant.expire()
        gate.open()
        await pause(0.1)
        #expect(grant.endCount == 1)
        drain.run {}
        #expect(time.grants.count == 1, "stopped: no more background time asked for")
    }

    @Test("entering the background delivers inside background time, given back once the drain is done")
    func runtimeDrainsInBackgroundTime() async throws {
        let directory = try TemporaryDirectory(prefix: "analytics-background-time")
        let server = try LoopbackHTTPServer()
        defer { server.stop() }
        let time = FakeBackgroundTime()
        let platform = fakePlatform(backgroundTime: time)
        let (analytics, id) = try await startObserving(directory, server, platform: platform, strategies: [.didEnterBackground])
        platform.notifications.post(name: Notification.Name("UIApplicationDidEnterBackgroundNotification"), object: nil)
        let grant = try #require(time.grants.first)
        #expect(await eventually { segmentMessageIDs(server) == [text(id)] })
        #expect(await eventually { grant.endCount == 1 })
        await analytics.close()
        #expect(grant.endCount == 1)
    }

    @Test("close() while the background drain waits on a slow collector gives the time back once")
    func runtimeCloseMeanwhile() async throws {
        let directory = try TemporaryDirectory(prefix: "analytics-background-close")
        let server = try LoopbackHTTPServer(defaultAction: .stall(seconds: 1.5))
        defer { server.stop() }
        let time = FakeBackgroundTime()
        let platform = fakePlatform(backgroundTime: time)
        let (analytics, _) = try await startObserving(directory, server, platform: platform, strategies: [.didEnterBackground])
        analytics.handle(.didEnterBackground)
        let grant = try #require(time.grants.first)
        #expect(await eventually(timeout: 30) { server.requestCount == 1 })
        #expect(grant.endCount == 0, "held while the delivery runs")
        await analytics.close(timeout: 0.5)
        #expect(grant.endCount == 1)
        await pause(0.2)
        #expect(grant.endCount == 1)
    }

    @Test("no background drain while the network is unreachable: the Dispatcher's round waits for it")
    func noDrainWhileUnreachable() async throws {
        let directory = try TemporaryDirectory(prefix: "analytics-background-unreachable")
        let server = try LoopbackHTTPServer()
        defer { server.stop() }
        let time = FakeBackgroundTime()
        let network = FakeReachability()
        let platform = fakePlatform(backgroundTime: time, reachability: network)
        let (analytics, id) = try await startObserving(directory, server, platform: platform, strategies: [.didEnterBackground])
        network.report(false)
        analytics.handle(.didEnterBackground)
        await pause(0.3)
        #expect(time.grants.isEmpty && server.requestCount == 0)
        network.report(true)
        analytics.handle(.willEnterForeground)
        analytics.handle(.didEnterBackground)
        #expect(await eventually { segmentMessageIDs(server) == [text(id)] })
        #expect(time.grants.count == 1)
        await analytics.close()
    }

    @Test("an app's bundle asks UIKit for background time, an extension's (.appex) ProcessInfo")
    func extensionIsTheAppexBundle() {
        #expect(PlatformServices.isAppExtension(bundlePath: "/private/var/containers/Bundle/Application/X/Shop.app/PlugIns/Share.appex"))
        #expect(PlatformServices.isAppExtension(bundlePath: "/X/Share.appex/"))
        #expect(!PlatformServices.isAppExtension(bundlePath: "/private/var/containers/Bundle/Application/X/Shop.app"))
        #expect(!PlatformServices.isAppExtension(bundlePath: "/usr/local/bin"))
    }
}
