import DataQuality
import Dispatcher
import Foundation
import Tracking

/// The one configuration of the ``Analytics`` runtime: where events are stored and delivered,
/// how they are batched and retried, and what the data-quality stages do.
///
/// The simplest setup is one line, and a JSON file can set everything:
///
/// ```swift
/// let analytics = try Analytics(configuration: AnalyticsConfiguration(
///     storePath: "analytics/events.sqlite",
///     destination: .segment(endpoint: URL(string: "https://api.segment.io")!, writeKey: key)))
/// ```
///
/// ```json
/// {
///   "store": "analytics/events.sqlite",
///   "appId": "shop-ios",
///   "destination": {"format": "snowplow", "endpoint": "https://collector.example.com"},
///   "batch": {"deliverySize": 50, "flushInterval": 15},
///   "retry": {"maxAttempts": 5},
///   "strategies": ["boot", "didEnterBackground"],
///   "contract": "contract.json",
///   "consentCategories": ["Marketing"],
///   "redaction": {"keys": ["email", "phone"], "mode": "hash"},
///   "session": {"foregroundTimeout": 1800, "backgroundTimeout": 600}
/// }
/// ```
///
/// Absent keys keep their defaults; unknown keys are errors, so a typo never silently falls
/// back to a default. ``validate()`` checks every value and names the first invalid field.
public struct AnalyticsConfiguration: Sendable, Equatable {
    /// The SQLite store file. Its folder also holds the journal (`<file>.journal/`) and the lock.
    /// JSON key `store` (required there: `"store": "events.sqlite"` is the default folder's file
    /// on Apple platforms); in code, default ``defaultStorePath``.
    ///
    /// A relative path is relative, on Apple platforms, to the SDK's folder (the one holding
    /// ``defaultStorePath``), never to the working directory; on Linux, to the working directory,
    /// or to the configuration file's folder when loaded from one.
    public var storePath: String
    /// The application id: Snowplow's `aid`. JSON key `appId`.
    public var appID: String
    /// Where events are delivered. Default ``DestinationSettings/none``: stored, not delivered.
    public var destination: DestinationSettings
    /// Queue bounds and batch sizes: the Dispatcher's one batch model.
    public var batch: BatchConfiguration
    /// When to retry a delivery and when to give up.
    public var retry: RetryPolicy
    /// The moments that trigger a delivery besides the timer and a full batch.
    public var strategies: BatchDispatchStrategy
    /// A data contract file (JSON key `contract`); `nil` validates nothing.
    public var contractPath: String?
    /// Event categories whose events wait, stored, until consent is granted.
    public var consentCategories: [String]
    /// What is redacted before anything is stored or printed.
    public var redaction: Redaction
    /// Session timeouts.
    public var session: Session
    /// Seconds within which identical events are flagged as duplicates; 0 turns it off.
    public var duplicateWindow: TimeInterval
    /// What happens to the runtime's own problems.
    public var diagnostics: DiagnosticsOptions
    /// How the runtime follows the app's lifecycle and the process's termination.
    public var lifecycle: Lifecycle
    /// How many delivered events the store keeps for the monitor (newest first). Default 0.
    public var deliveredHistory: Int
    /// The local web inspector; `nil` (the default) leaves it off. JSON key `"inspector"`.
    public var inspector: Inspector?

    /// Where the store lives when no path is given: `events.sqlite` in the SDK's own folder,
    /// `TrackingAnalytics`, which is made 0700 (and, on iOS, protected until the first unlock):
    /// - iOS, watchOS, visionOS: in the app's `Library/Application Support`;
    /// - tvOS: in `Library/Caches` (tvOS keeps no Application Support);
    /// - macOS: in `~/Library/Application Support/<bundle id>`;
    /// - Linux: `$XDG_DATA_HOME/TrackingAnalytics/<program>/events.sqlite`, by default
    ///   `~/.local/share/TrackingAnalytics/<program>/events.sqlite`.
    ///
    /// On Apple platforms the folder is excluded from backups when the runtime starts.
    public static var defaultStorePath: String { StoreLocation.current.defaultStorePath }

    /// A configuration with every default; the store at ``defaultStorePath`` unless given.
    public init(storePath: String = AnalyticsConfiguration.defaultStorePath, destination: DestinationSettings = .none) {
        self.storePath = storePath
        self.destination = destination
        appID = "app"
        batch = BatchConfiguration()
        retry = RetryPolicy()
        strategies = [.boot, .willEnterForeground, .didEnterBackground, .reachabilityPings]
        contractPath = nil
        consentCategories = []
        redaction = Redaction()
        session = Session()
        duplicateWindow = 1
        diagnostics = DiagnosticsOptions()
        lifecycle = Lifecycle()
        deliveredHistory = 0
        inspector = nil
    }

    /// Loads and validates a configuration file. A relative contract path or NDJSON file is
    /// resolved against the file's folder, and so is a relative store path on Linux (on Apple
    /// platforms it is relative to the SDK's folder: see ``storePath``).
    /// - Throws: `ConfigurationError` naming the file and the first invalid field, the line
    ///   and column of the first deviation from strict JSON (RFC 8259: no trailing commas,
    ///   comments, duplicate keys or byte order mark), or why the file cannot be read.
    public init(contentsOf url: URL) throws {
        var configuration = try ConfigurationDecoder.load(AnalyticsConfiguration.self, from: url)
        configuration.resolvePaths(against: url.deletingLastPathComponent())
        do {
            try configuration.validate()
        } catch var error as ConfigurationError {
            error.file = url.path
            throw error
        }
        self = configuration
    }

    /// Decodes and validates a configuration from JSON. Relative paths stay relative to the
    /// working directory (a relative store path, on Apple platforms, to the SDK's folder).
    /// - Throws: `ConfigurationError` naming the first invalid field, or the line and column
    ///   of the first deviation from strict JSON (RFC 8259).
    public init(json data: Data) throws {
        self = try ConfigurationDecoder.decode(AnalyticsConfiguration.self, from: data)
        try validate()
    }

    /// Makes relative paths relative to `folder`.
    mutating func resolvePaths(against folder: URL) {
        func resolved(_ path: String) -> String {
            path.hasPrefix("/") ? path : folder.appendingPathComponent(path).path
        }
        storePath = StoreLocation.current.resolve(storePath, on: .current, configurationFolder: folder.path)
        contractPath = contractPath.map(resolved)
        if destination.format == .ndjson, let file = destination.endpoint, file.isFileURL, file.baseURL != nil,
           !file.relativePath.hasPrefix("/") {
            destination.endpoint = URL(fileURLWithPath: resolved(file.relativePath))
        }
    }

    /// What the data-quality stages are built from.
    var quality: QualityConfiguration {
        QualityConfiguration(
            appID: appID,
            foregroundTimeout: session.foregroundTimeout,
            backgroundTimeout: session.backgroundTimeout,
            duplicateWindow: duplicateWindow,
            sensitiveKeys: redaction.keys,
            redaction: redaction.mode,
            consentCategories: consentCategories,
            configurationHash: hash
        )
    }
}

extension AnalyticsConfiguration: CustomStringConvertible {
    /// A readable summary; the write key is never shown.
    public var description: String {
        "AnalyticsConfiguration(store: \(storePath), appId: \(appID), destination: \(destination), hash: \(hash))"
    }
}
