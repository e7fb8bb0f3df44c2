import Foundation
import Tracking

/// Everything in this module composed from one ``QualityConfiguration``: the diagnostics,
/// identifiers, session, privacy controls, and the processors in the right order.
///
/// ```swift
/// let quality = try DataQualityStack(configuration: QualityConfiguration(appID: "shop"), folder: appSupport)
/// let reporter = EventReporter<Cart>(plugins: [console, dispatcher], processors: quality.processors)
/// quality.privacy.observe { change in /* the Dispatcher releases, deletes or purges */ }
/// ```
///
/// The processors run in this order: `PrivacyGate` (nothing else sees an opted-out event),
/// ``ContractValidator`` (sees the raw fields), `DuplicateDetector`, `ContextHydrator`,
/// `Redactor` (before anything is stored or printed, context included), `DiagnosticsTally`.
public final class DataQualityStack: Sendable {
    /// The configuration it was built from.
    public let configuration: QualityConfiguration
    /// Counters and errors.
    public let diagnostics: Diagnostics
    /// Installation, user and instance ids.
    public let identity: Identity
    /// The session.
    public let sessions: SessionTracker
    /// Opt-out, consent and purge.
    public let privacy: PrivacyControls
    /// The contract validator, when a contract is in use.
    public let validator: ContractValidator?
    /// The stages, in order: pass them to `EventReporter(plugins:processors:)`.
    public let processors: [any EventProcessor]
    /// The redactor's key, when it hashes (see ``replaceRedactionKey(_:)``).
    private let redactionKeys: RedactionKeyHolder?

    /// Builds the stack over an identity store.
    /// - Parameters:
    ///   - configuration: the configuration.
    ///   - store: where identifiers, session and privacy state persist.
    ///   - contract: the data contract; `nil` validates nothing.
    ///   - contractMode: ``ContractValidator/Mode/strict`` in tests.
    ///   - diagnostics: the diagnostics hub; a new one by default.
    ///   - application: the app's name and version.
    ///   - device: the device.
    ///   - currentDevice: the device kept current (replaces `device`): hydration follows its
    ///     locale and time-zone changes.
    ///   - providers: custom context providers.
    ///   - redactionKey: the installation's secret key of hashed redactions (see
    ///     ``RedactionKey/loadOrCreate(atPath:)``); `nil` hashes under a random key of this
    ///     stack's own, so hashes match only within its lifetime.
    public init(
        configuration: QualityConfiguration,
        store: any IdentityStore,
        contract: DataContract? = nil,
        contractMode: ContractValidator.Mode = .lenient,
        diagnostics: Diagnostics = Diagnostics(),
        application: ApplicationInfo = .current(),
        device: DeviceInfo = .current(),
        currentDevice: CurrentDeviceInfo? = nil,
        providers: [any ContextProvider] = [],
        redactionKey: RedactionKey? = nil
    ) {
        self.configuration = configuration
        self.diagnostics = diagnostics
        identity = Identity(store: store, diagnostics: diagnostics)
        sessions = SessionTracker(
            store: store,
            foregroundTimeout: configuration.foregroundTimeout,
            backgroundTimeout: configuration.backgroundTimeout,
            diagnostics: diagnostics
        )
        privacy = PrivacyControls(store: store, consentCategories: Set(configuration.consentCategories), diagnostics: diagnostics)
        // One matcher for the validator and the redactor: the redactor need not walk a userData
        // the validator's walk found nothing to redact in.
        let sensitive = SensitiveKeyMatcher(configuration.sensitiveKeys)
        validator = contract.map { ContractValidator($0, mode: contractMode, diagnostics: diagnostics, matcher: sensitive) }
        var stages: [any EventProcessor] = [PrivacyGate(privacy, diagnostics: diagnostics)]
        if let validator { stages.append(validator) }
        stages.append(DuplicateDetector(window: configuration.duplicateWindow, diagnostics: diagnostics,
                                        redactedFields: configuration.sensitiveKeys))
        var redactor: Redactor?
        if !configuration.sensitiveKeys.isEmpty {
            let strategy: Redactor.Strategy = configuration.redaction == .remove
                ? .remove : .hash(key: redactionKey ?? .random())
            redactor = Redactor(matcher: sensitive, strategy: strategy)
        }
        // Hydration screens each shared context it makes for the redactor, once: the redactor
        // then passes one with nothing to redact on without looking it up.
        stages.append(ContextHydrator(
            application: application,
            device: device,
            currentDevice: currentDevice,
            identity: identity,
            sessions: sessions,
            configurationHash: configuration.configurationHash,
            providers: providers,
            screen: redactor.map(Self.screen(with:))
        ))
        if let redactor { stages.append(redactor) }
        let keys = redactor?.keys
        stages.append(DiagnosticsTally(diagnostics))
        processors = stages
        redactionKeys = keys
    }

    /// Builds the stack with a `FileIdentityStore` at `folder/identity.json`, hashing redacted
    /// values under the installation's key in `folder/redaction.key`.
    /// - Throws: ``IdentityStoreError`` when a file cannot be used.
    public convenience init(configuration: QualityConfiguration, folder: URL, contract: DataContract? = nil) throws {
        let store = try FileIdentityStore(url: folder.appendingPathComponent("identity.json"))
        let key = configuration.redaction == .hash
            ? try RedactionKey.loadOrCreate(atPath: folder.appendingPathComponent("redaction.key").path) : nil
        self.init(configuration: configuration, store: store, contract: contract, redactionKey: key)
    }

    /// What `redactor` makes of a shared context's values (``Redactor/screen(sharedValues:)``).
    private static func screen(with redactor: Redactor) -> @Sendable (UserData) -> UInt64 {
        { values in redactor.screen(sharedValues: values) }
    }

    /// Hashes redacted values under `key` from now on, so that a value hashed afterwards does not
    /// match its hash from before: the runtime's purge gives the installation a new key. Does
    /// nothing when sensitive values are removed rather than hashed, or there are none.
    public func replaceRedactionKey(_ key: RedactionKey) { redactionKeys?.replace(key) }

    /// Forgets every identifier, the session, opt-out and consent; observers of ``privacy``
    /// (the Dispatcher) are told ``PrivacyChange/purged`` and delete their stored events.
    public func purge() {
        identity.purge()
        sessions.purge()
        privacy.purge()
    }
}
