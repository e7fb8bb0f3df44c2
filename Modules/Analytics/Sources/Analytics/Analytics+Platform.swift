import Dispatcher
import Foundation

extension Analytics {
    /// Observes what the platform reports: the app's lifecycle notifications, network
    /// reachability and protected data becoming available. Stopped by ``close(timeout:)``.
    func watchPlatform() {
        let lifecycle = LifecycleObserver(
            center: platform.notifications, isApplicationVisible: platform.isApplicationVisible
        ) { [weak self] event in self?.handle(event) }
        watchers.add { lifecycle.stop() }
        let reachability = ReachabilityForwarder(monitor: platform.reachability) { [weak self] event in self?.handle(event) }
        watchers.add { reachability.stop() }
        let protectedData = ProtectedDataObserver(center: platform.notifications) { [weak self] in
            self?.protectedDataDidBecomeAvailable()
        }
        watchers.add { protectedData.stop() }
    }

    /// Records reachability; on entering the background with the `didEnterBackground` strategy
    /// and a reachable network, drains inside background time (see ``handle(_:)``).
    /// - Returns: whether the drain replaces the Dispatcher's own handling of `event`. While
    ///   unreachable it does not: a drain's flush would try anyway and fail into backoff, where
    ///   the Dispatcher's requested round waits for the network.
    func drainedInBackgroundTime(_ event: LifecycleEvent) -> Bool {
        switch event {
        case .reachable, .unreachable:
            network.isReachable = event == .reachable
            return false
        case .willEnterForeground:
            return false
        case .didEnterBackground:
            guard configuration.strategies.contains(.didEnterBackground), network.isReachable else { return false }
            let timeout = configuration.lifecycle.drainTimeout
            backgroundDrain.run { [weak self] in _ = await self?.drain(timeout: timeout) }
            return true
        }
    }

    /// The device was unlocked: a store that could not be opened before (protected until first
    /// unlock) can be now.
    func protectedDataDidBecomeAvailable() {
        // TODO(storage-reopen): ask the Dispatcher to retry opening its store now; its retry (`openBackend`, `scheduleReopen`) is internal to the Dispatcher module, with no public hook yet.
    }
}
