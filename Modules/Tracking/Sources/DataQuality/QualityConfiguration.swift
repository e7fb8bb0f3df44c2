import Foundation

/// What the data-quality stages need to know: the app id, session timeouts, the duplicate
/// window, redaction and the categories that wait for consent.
///
/// An app does not build one by hand: the `Analytics` runtime derives it from its one
/// configuration, `AnalyticsConfiguration`, which is also where the values are validated.
public struct QualityConfiguration: Sendable, Equatable {
    /// What `Redactor` does with sensitive values.
    public enum Redaction: String, Sendable, Codable, CaseIterable {
        /// Replace with `hmac:` and a keyed hash under the installation's secret ``RedactionKey``:
        /// pseudonymisation (equal values match within one installation), not anonymisation.
        case hash
        /// Remove the key.
        case remove
    }

    /// The keys redacted unless a configuration says otherwise: `password`, `email`, `phone`.
    public static let defaultSensitiveKeys = ["password", "email", "phone"]

    /// The application id (Snowplow's `aid`). Hashed redactions do not use it: they are keyed
    /// with the installation's secret ``RedactionKey``.
    public var appID: String
    /// Inactivity in the foreground that ends a session, in seconds.
    public var foregroundTimeout: TimeInterval
    /// Inactivity in the background that ends a session, in seconds.
    public var backgroundTimeout: TimeInterval
    /// Seconds within which identical events are flagged as duplicates.
    public var duplicateWindow: TimeInterval
    /// userData and context keys redacted before anything is stored or printed.
    public var sensitiveKeys: [String]
    /// What redaction does.
    public var redaction: Redaction
    /// Event categories whose events wait for consent.
    public var consentCategories: [String]
    /// The short hash of the whole configuration, reported in every event's context as
    /// `ContextKey.configurationHash`.
    public var configurationHash: String

    /// Creates a configuration; every argument has a default.
    public init(
        appID: String = "app",
        foregroundTimeout: TimeInterval = 1800,
        backgroundTimeout: TimeInterval = 1800,
        duplicateWindow: TimeInterval = 1,
        sensitiveKeys: [String] = QualityConfiguration.defaultSensitiveKeys,
        redaction: Redaction = .hash,
        consentCategories: [String] = [],
        configurationHash: String = ""
    ) {
        self.appID = appID
        self.foregroundTimeout = foregroundTimeout
        self.backgroundTimeout = backgroundTimeout
        self.duplicateWindow = duplicateWindow
        self.sensitiveKeys = sensitiveKeys
        self.redaction = redaction
        self.consentCategories = consentCategories
        self.configurationHash = configurationHash
    }
}
