@_spi(Tasks) import Dispatcher
import Foundation

extension Analytics {
    /// Observes what the platform reports: the app's lifecycle notifications, network
    /// reachability and protected data becoming available. Stopped by ``close(timeout:isolation:)``.
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

    /// Records reachability, and on entering the background asks for background time around
    /// what must happen before suspension (see ``handle(_:)``): with the `didEnterBackground`
    /// strategy and a reachable network, a drain; on a platform that suspends apps, then the
    /// release of the storage (no file lock or transaction held while suspended), which
    /// `willEnterForeground` takes back. These steps run in the order of the moments.
    /// - Returns: whether the drain replaces the Dispatcher's own handling of `event`. While
    ///   unreachable it does not: a drain's flush would try anyway and fail into backoff, where
    ///   the Dispatcher's requested round waits for the network.
    func drainedInBackgroundTime(_ event: LifecycleEvent) -> Bool {
        switch event {
        case .reachable, .unreachable:
            network.isReachable = event == .reachable
            return false
        case .willEnterForeground:
            if platform.suspendsInBackground {
                suspensionSteps.enqueue { [weak self] in _ = await self?.dispatcher.resumeStorageAfterSuspension() }
            }
            return false
        case .didEnterBackground:
            let drains = configuration.strategies.contains(.didEnterBackground) && network.isReachable
            let releases = platform.suspendsInBackground
            guard drains || releases else { return false }
            let timeout = configuration.lifecycle.drainTimeout
            // Queued now, before a later moment's step can be.
            let step = suspensionSteps.enqueue { [weak self] in
                if drains { _ = await self?.drain(timeout: timeout) }
                if releases { _ = await self?.dispatcher.releaseStorageForSuspension(timeout: timeout) }
            }
            backgroundDrain.run { await step.value }
            return drains
        }
    }

    /// The device was unlocked: a store that could not be opened before (protected until first
    /// unlock) can be now, so it is opened at once rather than at the next retry.
    func protectedDataDidBecomeAvailable() {
        LibraryTask.start { [dispatcher] in _ = await dispatcher.retryOpeningStorage() }
    }
}
