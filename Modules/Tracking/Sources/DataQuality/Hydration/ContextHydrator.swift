import Foundation
import Tracking

/// The stage that adds global context to every event: app, OS, device, locale, time zone,
/// library, identifiers, session, configuration hash, custom providers' fields, and the
/// Snowplow `client_session` and `mobile_context` entities. See ``Tracking/ContextKey`` for the keys.
///
/// Place it after `PrivacyGate` (so opted-out events do not advance the session) and after
/// `DuplicateDetector` and ``ContractValidator`` (which look at userData only).
struct ContextHydrator: EventProcessor {
    private let base: UserData
    private let mobileEntity: UserDataValue?
    private let identity: Identity?
    private let sessions: SessionTracker?
    private let providers: [any ContextProvider]
    private let storageMechanism: String
    private let cache = HydrationCache()

    /// Creates a hydrator.
    /// - Parameters:
    ///   - application: the app's name and version.
    ///   - device: the device, OS, locale and time zone.
    ///   - identity: the identifiers; none are added when `nil`.
    ///   - sessions: the session tracker; no session is added when `nil`.
    ///   - configurationHash: the active configuration's hash (``QualityConfiguration/hash(of:)``, or
    ///     ``QualityConfiguration/configurationHash``).
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
            ContextKey.locale: .string(Self.languageTag(device.locale)),
            ContextKey.timezone: .string(device.timeZone),
            ContextKey.library: ["name": .string(TrackingLibrary.name), "version": .string(TrackingLibrary.version)],
        ]
        if let configurationHash { base[ContextKey.configurationHash] = .string(configurationHash) }
        self.base = base
        self.mobileEntity = snowplowEntities ? SnowplowEntity.mobileContext(device) : nil
        self.identity = identity
        self.sessions = sessions
        self.providers = providers
        self.storageMechanism = storageMechanism
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

    /// Adds the context; never returns `nil`.
    public func process(_ event: TrackedEvent) -> TrackedEvent? {
        var result = event
        if result.context.isEmpty {
            result.context = base
        } else {
            result.context.merge(base) { _, new in new }
        }
        var entities: [UserDataValue] = []
        if let mobileEntity { entities.append(mobileEntity) }
        if let identity {
            let installationID = identity.installationID
            let installationText = cache.text(forInstallation: installationID)
            result.context[ContextKey.installationID] = .string(installationText)
            result.context[ContextKey.instanceID] = .string(cache.text(forInstance: identity.instanceID))
            if let userID = identity.userID { result.context[ContextKey.userID] = .string(userID) }
            if let sessions {
                let session = sessions.nextEvent(at: event.timestamp, id: event.id)
                let parts = cache.parts(for: session, installation: installationText, storageMechanism: storageMechanism)
                var sessionObject = parts.context
                sessionObject["eventIndex"] = .int(session.eventIndex)
                result.context[ContextKey.session] = .object(sessionObject)
                if mobileEntity != nil {
                    var data = parts.clientSession
                    data["eventIndex"] = .int(min(session.eventIndex, Int(Int32.max)))
                    entities.append(["schema": .string(SnowplowEntity.clientSessionSchema), "data": .object(data)])
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
