import DataQuality
@_spi(Tasks) import Dispatcher
import Foundation
import Tracking

/// The runtime an app starts with one line: the data-quality stages, the Dispatcher (journal,
/// store, batching, delivery), identity, privacy and the app's lifecycle, composed from one
/// ``AnalyticsConfiguration``.
///
/// ```swift
/// let analytics = try Analytics(configuration: AnalyticsConfiguration(contentsOf: configURL))
/// let cart = analytics.reporter(for: Cart.self)
/// cart.send(name: .checkout, action: .pay, userData: ["quantity": 2])
/// analytics.identify(userID: "u-42", traits: ["plan": "pro"])
/// await analytics.close()
/// ```
///
/// Every event goes through the privacy gate, the contract, the duplicate detector, hydration
/// and redaction, then to the plugins given at start and the Dispatcher. Events are durable
/// once `send` returns. Identifiers, the session, opt-out and consent live in the store's
/// metadata, so ``purge(isolation:)`` leaves nothing behind.
///
/// It is safe to use from any thread. One process may run one `Analytics` per store: a second
/// one on the same store is refused with `StoreError.inUse`.
public final class Analytics: Sendable {
    /// The configuration it was started with.
    public let configuration: AnalyticsConfiguration
    /// The Dispatcher: the journal, the store, batching and delivery.
    public let dispatcher: Dispatcher
    /// The data-quality stages, identity, the session and the privacy controls. While the store
    /// cannot be read yet (see ``init(configuration:plugins:contract:contextProviders:application:device:)``)
    /// a provisional stack, replaced by the real one when the store opens.
    public var quality: DataQualityStack { gate.stack }
    /// The stack in use, and the stage holding events while the store cannot be read yet.
    let gate: StartGate
    let plugins: [any EventReporterPlugin]
    let bridge: ConsentBridge
    /// Fired when the store opened, if it was not open at start; runs ``completeStart``.
    let started: StartSignal
    /// The one ``Diagnostics`` every stack of this runtime reports to.
    let sharedDiagnostics: Diagnostics
    /// Sends the runtime's own `identify` and `screen` calls.
    private let callReporter: EventReporter<RuntimeCall>
    let watchers: Watchers
    /// What the platform provides: notifications, background time, reachability.
    let platform: PlatformServices
    /// Runs the drain on entering the background inside background time.
    let backgroundDrain: BackgroundDrain
    /// Whether the network was last reported reachable.
    let network = NetworkReachability()
    /// The local web inspector, when configured and listening.
    let inspector: Inspection?
    /// The storage steps of lifecycle moments, in order (release for suspension, take back).
    let suspensionSteps = SuspensionSteps()

    /// Starts everything, without waiting for the store: claims it, opens it off the caller's
    /// thread (replaying any journal a crash left; events sent meanwhile wait, in order, and
    /// ``ready(isolation:)`` waits for it), and starts the stages, delivery, lifecycle observation and, if
    /// configured, the termination drain.
    /// - Parameters:
    ///   - configuration: the configuration; it is validated first.
    ///   - plugins: more plugins for every event, before the Dispatcher (for example
    ///     `ConsoleReporter()` while developing).
    ///   - contract: a data contract built in code, used instead of the configuration's
    ///     ``AnalyticsConfiguration/contractPath``.
    ///   - contextProviders: context of the app's own, added to every event.
    ///   - application: the app's name and version; `nil` (the default) reads them from the
    ///     bundle or process, off the caller's thread.
    ///   - device: the device; `nil` (the default) reads it from the system, off the caller's
    ///     thread (on the caller's when the app's notifications are observed, to follow its
    ///     locale and time zone).
    ///
    /// Started before the device's first unlock (iOS: a prewarmed or background launch, when the
    /// store's protected files cannot be read), it does not throw: events are held, as sent, up
    /// to `BatchConfiguration.overflowQueueSize` (no receipt is returned for them),
    /// and the identity, session and privacy state are read when the store opens, by itself at
    /// the Dispatcher's next retry or at once through `Dispatcher.retryOpeningStorage()`; then
    /// the held events go through every stage, with the stored identity, to every plugin.
    /// - Throws: `ConfigurationError` naming the invalid field (including an unreadable or
    ///   invalid contract file); `StoreError` when the store is in use by another process, is
    ///   not an event store, or cannot be claimed at all (for another reason than protected
    ///   data). Once claimed, a store whose open then fails off the caller's thread does not
    ///   throw: the failure shows in `Dispatcher.storage` and ``diagnostics``, events wait, and
    ///   the open is retried.
    public convenience init(
        configuration: AnalyticsConfiguration,
        plugins: [any EventReporterPlugin] = [],
        contract: DataContract? = nil,
        contextProviders: [any ContextProvider] = [],
        application: ApplicationInfo? = nil,
        device: DeviceInfo? = nil
    ) throws {
        try self.init(
            configuration: configuration, plugins: plugins, contract: contract, contextProviders: contextProviders,
            application: application, device: device, platform: .system)
    }

    /// Starts everything on the given platform services (tests pass fakes); see the public init.
    init(
        configuration: AnalyticsConfiguration, plugins: [any EventReporterPlugin], contract: DataContract?,
        contextProviders: [any ContextProvider], application: ApplicationInfo?, device: DeviceInfo?, platform: PlatformServices
    ) throws {
        try configuration.validate()
        let contract = try contract ?? configuration.contractPath.map(Self.loadContract)
        self.configuration = configuration
        let diagnostics = Diagnostics()
        sharedDiagnostics = diagnostics
        // The default folder is looked up (home, bundle, system folders) only for a relative path.
        let location = configuration.storePath.hasPrefix("/") ? nil : StoreLocation.current
        let storePath = location?.resolve(configuration.storePath, on: .current) ?? configuration.storePath
        let opened = StartSignal()
        // Set when the store cannot be opened on this thread (the claim failed), not in the background.
        let failedAtClaim = LockedValue(false)
        var dispatcherConfiguration = DispatcherConfiguration(
            storePath: storePath,
            destination: try configuration.destination.make(appID: configuration.appID),
            batch: configuration.batch,
            // `boot` is asked for once the saved privacy decisions are applied (`watchPrivacy`).
            strategy: configuration.strategies.subtracting(.boot),
            retryPolicy: configuration.retry,
            // The inspector shows what was delivered: it keeps the last 1,000 at least.
            deliveredHistory: configuration.inspector == nil ? configuration.deliveredHistory : max(configuration.deliveredHistory, 1_000),
            onDiagnostic: { problem in
                diagnostics.record(problem.area == .storage ? .storage : .delivery, code: problem.area.rawValue, message: problem.message)
                if problem.area == .storage {
                    if Self.isClaiming { failedAtClaim.withLock { $0 = true } }
                    opened.fire()
                }
            })
        // The store opens off the caller's thread; events wait in the gate meanwhile.
        dispatcherConfiguration.opensStorageInBackground = true
        let dispatcher = try Self.$isClaiming.withValue(true) { try Dispatcher(configuration: dispatcherConfiguration) }
        Self.afterDispatcherStarts?(dispatcher)
        self.dispatcher = dispatcher
        started = opened
        let storage = dispatcher.storage
        let protected = storage != .available && storage != .opening && dispatcher.isWaitingForProtectedData
        // A store claimed here whose open then failed in the background is retried, as one failing later would be.
        let waiting = storage == .opening || protected || (storage != .available && !failedAtClaim.withLock { $0 })
        guard storage == .available || waiting else {
            let reason: String
            if case .unavailable(let why) = storage {
                // The Dispatcher's reason names the store already; say it once.
                let prefix = "cannot open store \(storePath): "
                reason = why.hasPrefix(prefix) ? String(why.dropFirst(prefix.count)) : why
            } else {
                reason = "the store closed while starting"
            }
            LibraryTask.start { [dispatcher] in await dispatcher.close(timeout: 1) }
            throw StoreError.cannotOpen(path: storePath, reason: reason, errno: nil)
        }
        if !waiting, let problem = (location ?? .current).excludeFromBackup() { diagnostics.record(.storage, code: "backup", message: problem) }
        // Locale and time-zone changes are followed with the app's other notifications.
        let currentDevice = configuration.lifecycle.observeNotifications
            ? CurrentDeviceInfo(initial: device ?? .current(), center: platform.notifications) : nil
        let recipe = StackRecipe(
            configuration: configuration.quality, contract: contract, diagnostics: diagnostics,
            application: application, device: device, currentDevice: currentDevice, providers: contextProviders,
            redactionKeyPath: StackRecipe.redactionKeyPath(of: storePath))
        let provisional = waiting ? ProvisionalIdentityStore() : nil
        // While waiting, the provisional stack is made when first used; its privacy is then watched.
        let watch = LockedValue<(@Sendable (DataQualityStack) -> Void)?>(nil)
        let store = provisional ?? Self.identityStore(of: dispatcher)
        gate = StartGate(stack: {
            let stack = recipe.make(store: store, readingKey: !waiting)
            watch.withLock { $0 }?(stack)
            return stack
        }, waiting: waiting, capacity: configuration.batch.overflowQueueSize, waitsForRoom: storage == .opening)
        inspector = Self.startInspector(configuration.inspector, dispatcher: dispatcher, diagnostics: diagnostics)
        self.plugins = Self.tapped(plugins + [dispatcher], by: inspector)
        callReporter = EventReporter(plugins: self.plugins, processors: waiting ? [gate] : gate.stack.processors)
        bridge = ConsentBridge(dispatcher: dispatcher, diagnostics: diagnostics)
        watchers = Watchers()
        if let currentDevice { watchers.add { currentDevice.stop() } }
        self.platform = platform
        backgroundDrain = BackgroundDrain(provider: platform.backgroundTime)
        if waiting { watch.withLock { $0 = { [weak self] stack in self?.watchPrivacy(of: stack) } } } else { watchPrivacy(of: quality) }
        startWatching()
        if let provisional {
            if protected { diagnostics.record(.storage, code: "protected_data", message: "the store cannot be read before the first unlock; events wait (up to \(gate.capacity)) and the identity is read when it opens") }
            opened.set(when: { [weak dispatcher] in dispatcher?.storage == .available }) { [weak self] in
                self?.completeStart(recipe: recipe, provisional: provisional, location: location, protected: protected)
            }
            opened.fire()
            if !protected {
                LibraryTask.start { [weak dispatcher, gate] in
                    // A store that did not open is retried: senders stop waiting for room meanwhile.
                    if await dispatcher?.storageReady() != .available { gate.stopWaitingForRoom() }
                    opened.fire()
                }
            }
        }
    }

    // MARK: - Sending

    /// A reporter for a feature's events, with the data-quality stages, the plugins and the
    /// Dispatcher in place. Cheap: make one wherever a feature needs it.
    public func reporter<T: EventType>(for feature: T.Type = T.self) -> EventReporter<T> {
        EventReporter<T>(plugins: plugins, processors: processors)
    }

    // MARK: - Identity

    /// The logged-in user's id, or `nil`. Read while the store is being opened at start, it
    /// waits for it (see ``ready(isolation:)``).
    public var userID: String? {
        awaitStart()
        return quality.identity.userID
    }

    /// The id of this installation: Segment's `anonymousId`, Snowplow's `duid`. Read while the
    /// store is being opened at start, it waits for it (see ``ready(isolation:)``).
    public var installationID: UUID {
        awaitStart()
        return quality.identity.installationID
    }

    /// Logs a user in: every later event carries the user id.
    public func logIn(userID: String) { quality.identity.logIn(userID: userID) }

    /// Logs the user out: later events carry no user id.
    public func logOut() { quality.identity.logOut() }

    /// Logs a user in and records who they are, as Segment's `identify` does: on Segment an
    /// `identify` message with `traits`; on Snowplow the user id (`uid`, on this and every later
    /// event) and the traits as a context entity. It goes through the same stages, journal and
    /// store as every event.
    @discardableResult
    public func identify(userID: String, traits: UserData = [:]) -> [Receipt] {
        quality.identity.logIn(userID: userID)
        return callReporter.identify(traits: traits)
    }

    // MARK: - Screens

    /// Records a screen view: on Segment a `screen` message; on Snowplow the
    /// `com.snowplowanalytics.mobile/screen_view` 1-0-0 event, with the properties as a context
    /// entity. The same as `EventReporter.screen(name:properties:)` on any reporter.
    @discardableResult
    public func screen(name: String, properties: UserData = [:]) -> [Receipt] {
        callReporter.screen(name: name, properties: properties)
    }

    // MARK: - Inspection

    /// The Dispatcher's counters since start, with the store's counts.
    public var counters: DispatcherCounters { dispatcher.counters }

    /// The runtime's diagnostics: storage and delivery problems and the stages' findings.
    public var diagnostics: Diagnostics { sharedDiagnostics }

    /// The stored events matching `query`, as the monitor shows them.
    public func records(_ query: StoreQuery = StoreQuery()) throws -> [MonitorRecord] { try dispatcher.records(query) }
}
