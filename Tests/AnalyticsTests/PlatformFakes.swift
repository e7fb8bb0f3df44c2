@testable import Analytics
@testable import DataQuality
@testable import Dispatcher
import Foundation
import TestSupport
import Tracking

/// Background time a test grants and expires at will, counting how often each grant is ended.
final class FakeBackgroundTime: BackgroundTimeProvider, Sendable {
    private let issued = LockedValue<[FakeBackgroundGrant]>([])
    /// Whether the system's expiry comes at once, inside `begin`, before the grant is returned.
    let expiresWhileBeginning: Bool

    init(expiresWhileBeginning: Bool = false) { self.expiresWhileBeginning = expiresWhileBeginning }

    func begin(reason: String, expired: @escaping @Sendable () -> Void) -> any BackgroundTimeGrant {
        let grant = FakeBackgroundGrant(reason: reason, expired: expired)
        issued.withLock { $0.append(grant) }
        if expiresWhileBeginning { grant.expire() }
        return grant
    }

    /// Every grant issued, in order.
    var grants: [FakeBackgroundGrant] { issued.withLock { $0 } }
}

/// One grant of ``FakeBackgroundTime``.
final class FakeBackgroundGrant: BackgroundTimeGrant, Sendable {
    private let ends = LockedValue(0)
    let reason: String
    private let expired: @Sendable () -> Void

    init(reason: String, expired: @escaping @Sendable () -> Void) {
        self.reason = reason
        self.expired = expired
    }

    func end() { ends.withLock { $0 += 1 } }

    /// How many times the grant was ended.
    var endCount: Int { ends.withLock { $0 } }

    /// The system takes the time back: calls the expiration handler, as UIKit would.
    func expire() { expired() }
}

/// Network paths a test reports at will.
final class FakeReachability: ReachabilityMonitor, Sendable {
    private let handler = LockedValue<(@Sendable (Bool) -> Void)?>(nil)
    private let stops = LockedValue(0)

    func start(_ update: @escaping @Sendable (Bool) -> Void) { handler.withLock { $0 = update } }

    func stop() {
        handler.withLock { $0 = nil }
        stops.withLock { $0 += 1 }
    }

    /// Reports a path: `true` for `.satisfied`, `false` for `.unsatisfied`.
    func report(_ reachable: Bool) { handler.withLock { $0 }?(reachable) }

    /// Whether the monitor is started and not stopped.
    var isStarted: Bool { handler.withLock { $0 != nil } }
}

/// Platform services of fakes, with a private notification center.
func fakePlatform(
    backgroundTime: FakeBackgroundTime = FakeBackgroundTime(), reachability: FakeReachability = FakeReachability(),
    visible: @escaping @Sendable () -> Bool? = { nil }, suspends: Bool = false
) -> PlatformServices {
    PlatformServices(
        notifications: NotificationCenter(), backgroundTime: backgroundTime, reachability: reachability,
        isApplicationVisible: visible, suspendsInBackground: suspends)
}

/// A running `Analytics` observing `platform`, delivering to `server` on `strategies` only,
/// with one event pending.
func startObserving(
    _ directory: TemporaryDirectory, _ server: LoopbackHTTPServer, platform: PlatformServices,
    strategies: BatchDispatchStrategy
) async throws -> (Analytics, UUID) {
    var configuration = fastConfiguration(directory, destination: segment(server))
    configuration.lifecycle.observeNotifications = true
    configuration.strategies = strategies
    let analytics = try Analytics(
        configuration: configuration, plugins: [], contract: nil, contextProviders: [],
        application: .current(), device: .current(), platform: platform)
    await analytics.ready()
    let sent = analytics.reporter(for: Shop.self).send(name: .view, action: .open)
    guard let id = sent.first?.eventID else { throw FakePlatformError.notSent }
    _ = await persisted(analytics, 1)
    return (analytics, id)
}

/// A start that did not go as planned.
enum FakePlatformError: Error { case notSent }
