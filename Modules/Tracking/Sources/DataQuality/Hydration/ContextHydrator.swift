import Foundation
import Tracking

/// The stage that adds global context to every event: app, OS, device, locale, time zone,
/// library, identifiers, session, configuration hash, custom providers' fields, and the
/// Snowplow `client_session` and `mobile_context` entities. See ``Tracking/ContextKey`` for the keys.
///
/// Place it after `PrivacyGate` (so opted-out events do not advance the session) and after
/// `DuplicateDetector` and ``ContractValidator`` (which look at userData only).
///
/// Everything but the event's index in its session is the same for every event of a session:
/// it is built once into a ``Tracking/SharedContext`` (rebuilt when the session, the user or the
/// installation id changes) that every event refers to. An event's own
/// ``Tracking/TrackedEvent/eventContext`` holds only `session.eventIndex`, which merges into the
/// shared `session` object, the caller's own keys, and what providers add. The `client_session`
/// entity is shared without `eventIndex`: a Snowplow destination takes it from `session.eventIndex`.
///
/// The merged ``Tracking/TrackedEvent/context`` is what a single flat context would be:
/// hydration's keys replace a caller's keys of the same name (an entities array is appended to),
/// and providers' fields replace anything.
struct ContextHydrator: EventProcessor {
    private let base: UserData
    private let mobileEntity: UserDataValue?
    /// Makes `base` and `mobileEntity` again for a changed device.
    private let baseMaker: HydrationBase
    /// The device kept current, when locale and time-zone changes are followed.
    private let currentDevice: CurrentDeviceInfo?
    private let identity: Identity?
    private let sessions: SessionTracker?
    private let providers: [any ContextProvider]
    private let storageMechanism: String
    /// Screens the values of each shared context made for the redactor after this stage (see
    /// ``Redactor/screen(sharedValues:)``); none when `nil`.
    private let screen: (@Sendable (UserData) -> UInt64)?
    /// The one shared context every event is given, made again only when its key changes, and
    /// the last own context made, whose storage the next one's is made in.
    private let memory = HydrationMemory()

    /// Creates a hydrator.
    /// - Parameters:
    ///   - application: the app's name and version.
    ///   - device: the device, OS, locale and time zone.
    ///   - currentDevice: the device kept current; when given, it replaces `device`, and a
    ///     locale or time-zone change makes the shared context again for the next event.
    ///   - identity: the identifiers; none are added when `nil`.
    ///   - sessions: the session tracker; no session is added when `nil`.
    ///   - configurationHash: the active configuration's hash (``QualityConfiguration/hash(of:)``, or
    ///     ``QualityConfiguration/configurationHash``).
    ///   - providers: custom context, applied last (they may override a built-in field).
    ///   - snowplowEntities: whether to add the Snowplow entities.
    ///   - storageMechanism: the `client_session` entity's `storageMechanism`.
    ///   - screen: what a later redactor makes of each shared context's values
    ///     (``Redactor/screen(sharedValues:)``), noted on the shared context.
    public init(
        application: ApplicationInfo = .current(),
        device: DeviceInfo = .current(),
        currentDevice: CurrentDeviceInfo? = nil,
        identity: Identity? = nil,
        sessions: SessionTracker? = nil,
        configurationHash: String? = nil,
        providers: [any ContextProvider] = [],
        snowplowEntities: Bool = true,
        storageMechanism: String = "SQLITE",
        screen: (@Sendable (UserData) -> UInt64)? = nil
    ) {
        baseMaker = HydrationBase(
            application: application, configurationHash: configurationHash, snowplowEntities: snowplowEntities)
        (base, mobileEntity) = baseMaker.facts(for: currentDevice?.value ?? device)
        self.currentDevice = currentDevice
        if let currentDevice {
            let memory = self.memory
            currentDevice.onChange { memory.reset() }
        }
        self.identity = identity
        if let identity {
            // The shared context names the identifiers: a change makes it again for the next event.
            let memory = self.memory
            identity.onChange { memory.reset() }
        }
        self.sessions = sessions
        self.providers = providers
        self.storageMechanism = storageMechanism
        self.screen = screen
    }

    /// The BCP 47 form of a locale identifier: `en_001` becomes `en-001`, `de_DE@calendar=…`
    /// and `en_US.UTF-8` become `de-DE` and `en-US`; `C`, `POSIX` or nothing becomes `und`.
    static func languageTag(_ identifier: String) -> String {
        var text = Substring(identifier)
        if let keywords = text.firstIndex(of: "@") { text = text[..<keywords] }
        if let encoding = text.firstIndex(of: ".") { text = text[..<encoding] }
        let subtags = text.split(whereSeparator: { $0 == "_" || $0 == "-" })
        guard let first = subtags.first, first != "C", first != "POSIX" else { return "und" }
        return subtags.joined(separator: "-")
    }

    /// Points `event` at the shared context of its session and sets its own context to the
    /// session's event index, the caller's own keys and the providers' fields; never stops it.
    public func process(_ event: inout TrackedEvent) -> Bool {
        let session = sessions?.nextEvent(at: event.timestamp, id: event.id, wallClockReading: event.clockReading)
        // The usual event has no context yet: its own context is the session's index alone, made
        // under the lock that finds the shared context. The identifiers it was made with are
        // current while it is kept (a change of the identity resets the memory), so they are read
        // only to make it again.
        let ownStartsEmpty = event.sharedContext == nil && event.eventContext.isEmpty
        let found = memory.lookUp(sessionID: session?.sessionID, eventIndex: ownStartsEmpty ? session?.eventIndex : nil)
        let shared: SharedContext
        if let cached = found.shared {
            shared = cached
        } else {
            let identifiers = identity?.identifiers
            let key = SharedContextKey(
                installationID: identifiers?.installationID, userID: identifiers?.userID, sessionID: session?.sessionID
            )
            let device = currentDevice?.snapshot
            let values = sharedValues(identifiers: identifiers, session: session, device: device)
            shared = SharedContext(values, screenedBy: screen?(values) ?? 0)
            memory.keep(shared, for: key, madeIn: found.generation)
            // A change between making and keeping: the reset may have come before the keeping.
            if let device, let currentDevice, currentDevice.changeCount != device.changeCount { memory.reset() }
        }
        var own = event.sharedContext == nil ? event.eventContext : event.context
        // Whether anything but the event index is the event's own: the caller's keys or providers'.
        let hasOtherKeys = !own.isEmpty || !providers.isEmpty
        if !own.isEmpty {
            for key in own.keys where key != ContextKey.snowplowEntities && shared.values[key] != nil {
                own.removeValue(forKey: key)
            }
        }
        if let session {
            if own.isEmpty {
                own = found.own ?? memory.sessionContext(eventIndex: session.eventIndex)
            } else {
                own[ContextKey.session] = .object(["eventIndex": .int(session.eventIndex)])
            }
        }
        var replaced: Set<String> = []
        if !providers.isEmpty { addProviderFields(to: &own, replaced: &replaced, event: event, shared: shared) }
        if hasOtherKeys, let ownEntities = own[ContextKey.snowplowEntities],
           case .array(let sharedEntities)? = shared.values[ContextKey.snowplowEntities] {
            if case .array(let existing) = ownEntities {
                own[ContextKey.snowplowEntities] = .array(existing + sharedEntities)
            } else {
                own.removeValue(forKey: ContextKey.snowplowEntities)
            }
        }
        if replaced.isEmpty {
            event.eventContext = own
            event.sharedContext = shared
        } else {
            // A provider replaced a whole shared object, which merging cannot express: this
            // event carries a context of its own, shared with no other.
            var full = shared.merged(with: own)
            for key in replaced { full[key] = own[key] }
            event.context = full
        }
        return true
    }

    /// Applies each provider's fields in turn, each provider seeing the context so far; collects
    /// in `replaced` the keys whose object value must replace the shared object, not merge into it.
    private func addProviderFields(to own: inout UserData, replaced: inout Set<String>, event: TrackedEvent, shared: SharedContext) {
        var current = event
        current.sharedContext = shared
        for provider in providers {
            current.eventContext = own
            for (key, value) in provider.context(for: current) {
                own[key] = value
                if case .object = value, case .object? = shared.values[key] {
                    replaced.insert(key)
                } else {
                    replaced.remove(key)
                }
            }
        }
    }

    /// The values every event with these identifiers and this session shares, on `device` when
    /// it changed since the start.
    private func sharedValues(
        identifiers: (installationID: UUID, userID: String?)?, session: SessionSnapshot?,
        device: (changeCount: Int, value: DeviceInfo)?
    ) -> UserData {
        var (values, mobileEntity) = (base, self.mobileEntity)
        if let device, device.changeCount > 0 { (values, mobileEntity) = baseMaker.facts(for: device.value) }
        var entities: [UserDataValue] = []
        if let mobileEntity { entities.append(mobileEntity) }
        if let identity, let identifiers {
            values[ContextKey.installationID] = .string(EventID.text(identifiers.installationID))
            values[ContextKey.instanceID] = .string(EventID.text(identity.instanceID))
            if let userID = identifiers.userID { values[ContextKey.userID] = .string(userID) }
            if let session, mobileEntity != nil {
                entities.append(SnowplowEntity.sharedClientSession(
                    session, installationID: identifiers.installationID, storageMechanism: storageMechanism))
            }
        }
        if let session { values[ContextKey.session] = .object(session.sessionMembers) }
        if !entities.isEmpty { values[ContextKey.snowplowEntities] = .array(entities) }
        return values
    }
}
