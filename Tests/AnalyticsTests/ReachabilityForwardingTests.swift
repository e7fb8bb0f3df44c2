@testable import Analytics
@testable import DataQuality
@testable import Dispatcher
import Foundation
import Testing
import TestSupport
import Tracking

/// Network paths, reported by a fake in place of `NWPathMonitor`, reach the Dispatcher as
/// `.reachable` and `.unreachable`, once per change.
@Suite("Reachability from network paths")
struct ReachabilityForwardingTests {
    /// What a forwarder handed on, in order.
    final class Forwarded: Sendable {
        private let events = LockedValue<[LifecycleEvent]>([])
        func append(_ event: LifecycleEvent) { events.withLock { $0.append(event) } }
        var all: [LifecycleEvent] { events.withLock { $0 } }
    }

    @Test("unsatisfied means unreachable, satisfied reachable; repeats and a first satisfied are no change")
    func forwardsChangesOnly() {
        let monitor = FakeReachability()
        let forwarded = Forwarded()
        let forwarder = ReachabilityForwarder(monitor: monitor) { forwarded.append($0) }
        #expect(monitor.isStarted)
        for reachable in [true, false, false, true, true, true, false] { monitor.report(reachable) }
        #expect(forwarded.all == [.unreachable, .reachable, .unreachable])
        forwarder.stop()
        #expect(!monitor.isStarted)
    }

    @Test("with no path, delivery waits instead of failing; the path coming back delivers (reachabilityPings)")
    func pathComingBackDelivers() async throws {
        let directory = try TemporaryDirectory(prefix: "analytics-reachability")
        let server = try LoopbackHTTPServer()
        defer { server.stop() }
        let network = FakeReachability()
        let platform = fakePlatform(reachability: network)
        let (analytics, id) = try await startObserving(
            directory, server, platform: platform, strategies: [.willEnterForeground, .reachabilityPings])
        network.report(false)
        analytics.handle(.willEnterForeground)
        await pause(0.3)
        #expect(server.requestCount == 0, "held while there is no path")
        #expect(analytics.counters.store.pending == 1)
        network.report(true)
        #expect(await eventually { segmentMessageIDs(server) == [text(id)] })
        await analytics.close()
        #expect(!network.isStarted, "close() stops the monitor")
    }

    @Test("a repeated satisfied path asks for no delivery of its own")
    func repeatedSatisfiedIsNoPing() async throws {
        let directory = try TemporaryDirectory(prefix: "analytics-reachability-repeat")
        let server = try LoopbackHTTPServer()
        defer { server.stop() }
        let network = FakeReachability()
        let platform = fakePlatform(reachability: network)
        let (analytics, _) = try await startObserving(directory, server, platform: platform, strategies: [.reachabilityPings])
        network.report(true)
        network.report(true)
        await pause(0.3)
        #expect(server.requestCount == 0, "reachable from the start: nothing changed, no ping")
        #expect(analytics.counters.store.pending == 1)
        await analytics.close()
    }

    @Test("protected data becoming available is observed by its UIKit name, until stopped")
    func protectedDataObserved() {
        let center = NotificationCenter()
        let forwarded = Forwarded()
        let observer = ProtectedDataObserver(center: center) { forwarded.append(.reachable) }
        center.post(name: Notification.Name("UIApplicationProtectedDataWillBecomeUnavailable"), object: nil)
        #expect(forwarded.all.isEmpty)
        center.post(name: Notification.Name("UIApplicationProtectedDataDidBecomeAvailable"), object: nil)
        #expect(forwarded.all.count == 1)
        observer.stop()
        center.post(name: Notification.Name("UIApplicationProtectedDataDidBecomeAvailable"), object: nil)
        #expect(forwarded.all.count == 1)
    }
}
