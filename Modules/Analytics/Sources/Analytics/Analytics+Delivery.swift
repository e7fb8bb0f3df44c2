import DataQuality
@_spi(Tasks) import Dispatcher
import Foundation
import Tracking

extension Analytics {
    // MARK: - Delivery

    /// Persists everything sent (after the privacy decisions in flight are applied), then runs a
    /// delivery round now and returns what happened (see `Dispatcher.drain(timeout:)`), within
    /// `timeout` seconds: the one call that waits for delivery. Delivery otherwise happens by
    /// itself (a full batch, the flush interval, the lifecycle moments of the strategy).
    @discardableResult
    public func drain(timeout: TimeInterval = 60, isolation: isolated (any Actor)? = #isolation) async -> DrainResult {
        return await LibraryTask.run {
            await ready()
            _ = await bridge.settle()
            return await dispatcher.drain(timeout: timeout)
        }
    }

    /// Asks for a delivery round now and returns at once, without waiting for it (what
    /// Segment's and Amplitude's `flush()` do). The round runs on the runtime's own queues; its
    /// outcome shows in ``counters`` and ``diagnostics``. To wait for it, call
    /// ``drain(timeout:isolation:)``.
    public func requestDelivery() { dispatcher.requestDelivery() }

    /// Stops delivering (events are still stored) until ``resume()``.
    public func pause() { dispatcher.pause() }

    /// Resumes delivering after ``pause()``.
    public func resume() { dispatcher.resume() }

    /// Whether delivery is paused, by ``pause()`` or because the endpoint refused the credentials.
    public var isPaused: Bool { dispatcher.isPaused }

    /// Tells the runtime about a lifecycle moment: the session and the delivery strategies
    /// follow it. The app's notifications are observed already unless
    /// ``AnalyticsConfiguration/Lifecycle/observeNotifications`` is off.
    ///
    /// Entering the background with the `didEnterBackground` strategy, while the network is
    /// reachable, drains within ``AnalyticsConfiguration/Lifecycle/drainTimeout`` seconds inside
    /// background time asked of the system, given back when the drain ends or the time expires.
    public func handle(_ event: LifecycleEvent) {
        switch event {
        case .didEnterBackground: quality.sessions.didEnterBackground()
        case .willEnterForeground: quality.sessions.willEnterForeground()
        case .reachable, .unreachable: break
        }
        if !drainedInBackgroundTime(event) { dispatcher.handle(event) }
    }

    /// Stops observing, applies the privacy decisions still pending, persists everything sent,
    /// tries a last delivery within `timeout`, closes the store and stops the inspector. Events
    /// sent afterwards are refused and counted.
    public func close(timeout: TimeInterval = 10, isolation: isolated (any Actor)? = #isolation) async {
        await LibraryTask.run {
            // The events waiting for the store being opened go through the stages first.
            await ready()
            watchers.stop()
            backgroundDrain.stop()
            _ = await bridge.settle()
            quality.sessions.persist()
            await dispatcher.close(timeout: timeout)
            inspector?.server.stop()
        }
    }
}
