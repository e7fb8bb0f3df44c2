import Foundation
import Tracking

/// The stage that adds global context to every event: app, OS, device, locale, time zone,
/// library, identifiers, session, configuration hash, custom providers' fields, and the
/// Snowplow `client_session` and `mobile_context` entities. See ``ContextKey`` for the keys.
///
/// Place it after ``PrivacyGate`` (so opted-out events do not advance the session) and after
/// ``DuplicateDetector`` and ``ContractValidator`` (which look at userData only).
public struct ContextHydrator: EventProcessor {
    private let base: UserData
    private let mobileEntity: UserDataValue?
    private let identity: Identity?
    private let sessions: SessionTracker?
    private let providers: [any ContextProvider]
    private let storageMechanism: String

    /// Creates a hydrator.
    /// - Parameters:
    ///   - application: the app's name and version.
    ///   - device: the device, OS, locale and time zone.
    ///   - identity: the identifiers; none are added when `nil`.
    ///   - sessions: the session tracker; no session is added when `nil`.
    ///   - configurationHash: the active configuration's hash (``ConfigurationHash``, or
    ///     ``TrackingConfiguration/hash``).
    ///   - providers: custom context, applied last (they may override a built-in field).
    ///   - snowplowEntities: whether to add the Snowplow entities.
    ///   - storageMechanism: the `client_session` entity's `storageMechanism`.
    public init(
        application: ApplicationInfo = .current(),
        device: DeviceInfo = .current(),
        identity: Identity? = nil,
        sessions: SessionTracker? = nil,
        configurationHash: String? = nil,
        providers: [any ContextProvider] = [],
        snowplowEntities: Bool = true,
        storageMechanism: String = "SQLITE"
    ) {
        var base: UserData = [
            ContextKey.app: .object([
                "name": .string(application.name),
                "version": .string(application.version),
            ].merging(application.build.map { ["build": .string($0)] } ?? [:]) { first, _ in first }),
            ContextKey.os: ["name": .string(device.osName), "version": .string(device.osVersion)],
            ContextKey.device: ["manufacturer": .string(device.manufacturer), "model": .string(device.model)],
            ContextKey.locale: .string(device.locale),
            ContextKey.timezone: .string(device.timeZone),
            ContextKey.library: ["name": .string(LibraryInfo.name), "version": .string(LibraryInfo.version)],
        ]
        if let configurationHash { base[ContextKey.configurationHash] = .string(configurationHash) }
        self.base = base
        self.mobileEntity = snowplowEntities ? SnowplowEntity.mobileContext(device) : nil
        self.identity = identity
        self.sessions = sessions
        self.providers = providers
        self.storageMechanism = storageMechanism
    }

    /// Adds the context; never returns `nil`.
    public func process(_ event: TrackedEvent) -> TrackedEvent? {
        var result = event
        result.context.merge(base) { _, new in new }
        var entities: [UserDataValue] = []
        if let mobileEntity { entities.append(mobileEntity) }
        if let identity {
            let installationID = identity.installationID
            result.context[ContextKey.installationID] = .string(installationID.uuidString.lowercased())
            result.context[ContextKey.instanceID] = .string(identity.instanceID.uuidString.lowercased())
            if let userID = identity.userID { result.context[ContextKey.userID] = .string(userID) }
            if let sessions {
                let session = sessions.nextEvent(at: event.timestamp, id: event.id)
                result.context[ContextKey.session] = session.contextValue
                if mobileEntity != nil {
                    entities.append(SnowplowEntity.clientSession(session, installationID: installationID, storageMechanism: storageMechanism))
                }
            }
        } else if let sessions {
            result.context[ContextKey.session] = sessions.nextEvent(at: event.timestamp, id: event.id).contextValue
        }
        for provider in providers {
            result.context.merge(provider.context(for: result)) { _, new in new }
        }
        if !entities.isEmpty {
            if case .array(let existing)? = result.context[ContextKey.snowplowEntities] { entities = existing + entities }
            result.context[ContextKey.snowplowEntities] = .array(entities)
        }
        return result
    }
}
