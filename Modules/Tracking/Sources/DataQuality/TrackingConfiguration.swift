import Foundation
import Tracking

/// Everything that configures tracking, as `Codable` values with defaults: the simplest setup
/// is one line, `TrackingConfiguration(endpoint: url)`, and a JSON file can set everything.
///
/// ```json
/// {
///   "endpoint": "https://collector.example.com",
///   "format": "snowplow",
///   "appId": "shop-ios",
///   "batch": {"deliverySize": 50, "flushInterval": 15},
///   "session": {"foregroundTimeout": 1800, "backgroundTimeout": 600},
///   "sensitiveKeys": ["email", "phone"],
///   "consentCategories": ["Marketing"],
///   "contractPath": "contract.json"
/// }
/// ```
///
/// Batch settings are plain numbers; the Dispatcher maps them to its own types. Unknown keys
/// are errors (a typo must not silently fall back to a default).
public struct TrackingConfiguration: Sendable, Equatable, Codable {
    /// The wire format events are delivered in.
    public enum Format: String, Sendable, Codable, CaseIterable {
        /// Segment-compatible batch API (`POST /v1/batch`).
        case segment
        /// Snowplow collector protocol (`POST /com.snowplowanalytics.snowplow/tp2`).
        case snowplow
        /// One JSON object per line in a local file.
        case ndjson
    }

    /// What ``Redactor`` does with sensitive values.
    public enum Redaction: String, Sendable, Codable, CaseIterable {
        /// Replace with a hash salted with the app id (see ``Redactor/Strategy/hash(salt:)``).
        case hash
        /// Remove the key.
        case remove
    }

    /// Batching and delivery limits.
    public struct Batch: Sendable, Equatable, Codable {
        /// The most events held in the store.
        public var maxQueueSize: Int = 10_000
        /// The most bytes held in the store.
        public var maxQueueBytes: Int = 20_000_000
        /// Events kept in memory when the store cannot be written.
        public var overflowQueueSize: Int = 1_000
        /// The most events in one request.
        public var deliverySize: Int = 100
        /// The most bytes in one request.
        public var maxBatchBytes: Int = 500_000
        /// Seconds between timed flushes; 0 flushes only on triggers.
        public var flushInterval: Double = 30
        /// Delivery attempts before an event is rejected.
        public var maxAttempts: Int = 10
        /// Seconds after which an undelivered event is rejected.
        public var maxAge: Double = 7 * 86_400

        /// The defaults.
        public init() {}

        private enum CodingKeys: String, CodingKey, CaseIterable {
            case maxQueueSize, maxQueueBytes, overflowQueueSize, deliverySize, maxBatchBytes, flushInterval, maxAttempts, maxAge
        }

        /// Decodes batch settings; absent keys keep their defaults, unknown keys are errors.
        public init(from decoder: any Decoder) throws {
            try decoder.rejectUnknownKeys(Set(CodingKeys.allCases.map(\.stringValue)))
            let container = try decoder.container(keyedBy: CodingKeys.self)
            maxQueueSize = try container.decodeIfPresent(Int.self, forKey: .maxQueueSize) ?? maxQueueSize
            maxQueueBytes = try container.decodeIfPresent(Int.self, forKey: .maxQueueBytes) ?? maxQueueBytes
            overflowQueueSize = try container.decodeIfPresent(Int.self, forKey: .overflowQueueSize) ?? overflowQueueSize
            deliverySize = try container.decodeIfPresent(Int.self, forKey: .deliverySize) ?? deliverySize
            maxBatchBytes = try container.decodeIfPresent(Int.self, forKey: .maxBatchBytes) ?? maxBatchBytes
            flushInterval = try container.decodeIfPresent(Double.self, forKey: .flushInterval) ?? flushInterval
            maxAttempts = try container.decodeIfPresent(Int.self, forKey: .maxAttempts) ?? maxAttempts
            maxAge = try container.decodeIfPresent(Double.self, forKey: .maxAge) ?? maxAge
        }
    }

    /// Session timeouts, in seconds.
    public struct Session: Sendable, Equatable, Codable {
        /// Inactivity in the foreground that ends a session.
        public var foregroundTimeout: Double = 1800
        /// Inactivity in the background that ends a session.
        public var backgroundTimeout: Double = 1800

        /// The defaults (30 minutes each).
        public init() {}

        private enum CodingKeys: String, CodingKey, CaseIterable { case foregroundTimeout, backgroundTimeout }

        /// Decodes timeouts; absent keys keep their defaults, unknown keys are errors.
        public init(from decoder: any Decoder) throws {
            try decoder.rejectUnknownKeys(Set(CodingKeys.allCases.map(\.stringValue)))
            let container = try decoder.container(keyedBy: CodingKeys.self)
            foregroundTimeout = try container.decodeIfPresent(Double.self, forKey: .foregroundTimeout) ?? foregroundTimeout
            backgroundTimeout = try container.decodeIfPresent(Double.self, forKey: .backgroundTimeout) ?? backgroundTimeout
        }
    }

    /// Where events are delivered: `https://…`, `http://` only for loopback hosts, or a
    /// `file://` URL for ``Format/ndjson``.
    public var endpoint: URL
    /// The wire format.
    public var format: Format = .segment
    /// The destination's write key, if it needs one. Never printed and not part of ``hash``.
    public var writeKey: String?
    /// The application id sent with every event (Snowplow `aid`).
    public var appID: String = "app"
    /// Batching and delivery limits.
    public var batch = Batch()
    /// Session timeouts.
    public var session = Session()
    /// Seconds within which identical events are flagged as duplicates.
    public var duplicateWindow: Double = 1
    /// userData and context keys redacted before anything is stored or printed.
    public var sensitiveKeys: [String] = ["password", "email", "phone"]
    /// What redaction does.
    public var redaction: Redaction = .hash
    /// Event categories whose events wait for consent.
    public var consentCategories: [String] = []
    /// A data contract file, relative to the configuration file when loaded from one.
    public var contractPath: String?

    /// A configuration with every default and this endpoint.
    public init(endpoint: URL) { self.endpoint = endpoint }

    private enum CodingKeys: String, CodingKey, CaseIterable {
        case endpoint, format, writeKey, appID = "appId", batch, session, duplicateWindow, sensitiveKeys, redaction
        case consentCategories, contractPath
    }

    /// Decodes a configuration; absent keys keep their defaults, unknown keys are errors.
    /// Call ``validate()`` (or use ``decode(_:)``) to check the values.
    public init(from decoder: any Decoder) throws {
        try decoder.rejectUnknownKeys(Set(CodingKeys.allCases.map(\.stringValue)))
        let container = try decoder.container(keyedBy: CodingKeys.self)
        endpoint = try container.decode(URL.self, forKey: .endpoint)
        if let name = try container.decodeIfPresent(String.self, forKey: .format) {
            guard let format = Format(rawValue: name) else {
                throw DecodingError.dataCorruptedError(
                    forKey: .format, in: container,
                    debugDescription: "unknown format '\(name)' (known: \(Format.allCases.map(\.rawValue).joined(separator: ", ")))"
                )
            }
            self.format = format
        }
        writeKey = try container.decodeIfPresent(String.self, forKey: .writeKey)
        appID = try container.decodeIfPresent(String.self, forKey: .appID) ?? appID
        batch = try container.decodeIfPresent(Batch.self, forKey: .batch) ?? batch
        session = try container.decodeIfPresent(Session.self, forKey: .session) ?? session
        duplicateWindow = try container.decodeIfPresent(Double.self, forKey: .duplicateWindow) ?? duplicateWindow
        sensitiveKeys = try container.decodeIfPresent([String].self, forKey: .sensitiveKeys) ?? sensitiveKeys
        if let name = try container.decodeIfPresent(String.self, forKey: .redaction) {
            guard let redaction = Redaction(rawValue: name) else {
                throw DecodingError.dataCorruptedError(
                    forKey: .redaction, in: container,
                    debugDescription: "unknown redaction '\(name)' (known: \(Redaction.allCases.map(\.rawValue).joined(separator: ", ")))"
                )
            }
            self.redaction = redaction
        }
        consentCategories = try container.decodeIfPresent([String].self, forKey: .consentCategories) ?? consentCategories
        contractPath = try container.decodeIfPresent(String.self, forKey: .contractPath)
    }

    /// Decodes and validates a configuration from JSON.
    /// - Throws: ``ConfigurationError`` naming the first invalid field.
    public static func decode(_ data: Data) throws -> TrackingConfiguration {
        let configuration: TrackingConfiguration
        do {
            configuration = try JSONDecoder().decode(TrackingConfiguration.self, from: data)
        } catch {
            // Foundation gives no position for a syntax error: find it, as a line and column.
            if case DecodingError.dataCorrupted(let context) = error, context.codingPath.isEmpty,
               let syntax = JSONSyntaxError.find(in: [UInt8](data)) {
                throw ConfigurationError(field: "(root)", reason: "not valid JSON at \(syntax)")
            }
            let (path, reason) = CodingPath.describe(error)
            throw ConfigurationError(field: path, reason: reason)
        }
        try configuration.validate()
        return configuration
    }

    /// Loads and validates a configuration file. A relative ``contractPath``, and a relative
    /// `file:` endpoint (`"file:outbox.ndjson"`), are resolved against the file's folder.
    /// - Throws: ``ConfigurationError`` naming the file and the first invalid field.
    public static func load(from url: URL) throws -> TrackingConfiguration {
        let data: Data
        do {
            data = try Data(contentsOf: url)
        } catch {
            throw ConfigurationError(field: "(file)", reason: "cannot read: \(error.localizedDescription)", file: url.path)
        }
        do {
            var configuration = try decode(data)
            let folder = url.deletingLastPathComponent()
            if let path = configuration.contractPath, !path.hasPrefix("/") {
                configuration.contractPath = folder.appendingPathComponent(path).path
            }
            if configuration.endpoint.scheme?.lowercased() == "file", !configuration.endpoint.path.hasPrefix("/") {
                configuration.endpoint = folder.appendingPathComponent(configuration.endpoint.path)
            }
            return configuration
        } catch var error as ConfigurationError {
            error.file = url.path
            throw error
        }
    }

    /// Checks every value.
    /// - Throws: ``ConfigurationError`` naming the first invalid field.
    public func validate() throws {
        try validateEndpoint()
        func positive(_ value: Int, _ field: String) throws {
            guard value > 0 else { throw ConfigurationError(field: field, reason: "must be greater than 0 (got \(value))") }
        }
        func nonNegative(_ value: Double, _ field: String) throws {
            guard value.isFinite, value >= 0 else { throw ConfigurationError(field: field, reason: "must not be negative (got \(value))") }
        }
        func greaterThanZero(_ value: Double, _ field: String) throws {
            guard value.isFinite, value > 0 else { throw ConfigurationError(field: field, reason: "must be greater than 0 (got \(value))") }
        }
        guard !appID.isEmpty else { throw ConfigurationError(field: "appId", reason: "must not be empty") }
        try positive(batch.maxQueueSize, "batch.maxQueueSize")
        try positive(batch.maxQueueBytes, "batch.maxQueueBytes")
        guard batch.overflowQueueSize >= 0 else {
            throw ConfigurationError(field: "batch.overflowQueueSize", reason: "must not be negative (got \(batch.overflowQueueSize))")
        }
        try positive(batch.deliverySize, "batch.deliverySize")
        try positive(batch.maxBatchBytes, "batch.maxBatchBytes")
        try nonNegative(batch.flushInterval, "batch.flushInterval")
        try positive(batch.maxAttempts, "batch.maxAttempts")
        try greaterThanZero(batch.maxAge, "batch.maxAge")
        guard batch.deliverySize <= batch.maxQueueSize else {
            throw ConfigurationError(field: "batch.deliverySize", reason: "must not exceed batch.maxQueueSize (\(batch.deliverySize) > \(batch.maxQueueSize))")
        }
        try greaterThanZero(session.foregroundTimeout, "session.foregroundTimeout")
        try greaterThanZero(session.backgroundTimeout, "session.backgroundTimeout")
        try nonNegative(duplicateWindow, "duplicateWindow")
        if let index = sensitiveKeys.firstIndex(where: { $0.isEmpty }) {
            throw ConfigurationError(field: "sensitiveKeys[\(index)]", reason: "must not be empty")
        }
        if let index = consentCategories.firstIndex(where: { $0.isEmpty }) {
            throw ConfigurationError(field: "consentCategories[\(index)]", reason: "must not be empty")
        }
        if let contractPath, contractPath.isEmpty {
            throw ConfigurationError(field: "contractPath", reason: "must not be empty when given")
        }
    }

    private func validateEndpoint() throws {
        let scheme = endpoint.scheme?.lowercased() ?? ""
        switch scheme {
        case "https":
            guard endpoint.host?.isEmpty == false else { throw ConfigurationError(field: "endpoint", reason: "has no host: \(endpoint.absoluteString)") }
        case "http":
            let host = (endpoint.host ?? "").lowercased().trimmingCharacters(in: CharacterSet(charactersIn: "[]"))
            guard ["localhost", "::1"].contains(host) || host.hasPrefix("127.") else {
                throw ConfigurationError(
                    field: "endpoint",
                    reason: "must use https unless the host is loopback (got http://\(host.isEmpty ? "?" : host))"
                )
            }
        case "file":
            guard format == .ndjson else {
                throw ConfigurationError(field: "endpoint", reason: "a file:// endpoint needs format \"ndjson\" (format is \"\(format.rawValue)\")")
            }
            if let host = endpoint.host, !host.isEmpty, host.lowercased() != "localhost" {
                throw ConfigurationError(
                    field: "endpoint",
                    reason: "a file:// endpoint must name no host or localhost (got host '\(host)' in \(endpoint.absoluteString))")
            }
        default:
            throw ConfigurationError(field: "endpoint", reason: "unsupported scheme '\(scheme)' (use https, http for loopback, or file)")
        }
    }

    /// The short hash of this configuration (write key left out), reported in every event's
    /// context as ``ContextKey/configurationHash``.
    public var hash: String {
        var hashed = self
        hashed.writeKey = writeKey == nil ? nil : "set"
        return ConfigurationHash.of(hashed)
    }
}

extension TrackingConfiguration: CustomStringConvertible {
    /// A readable summary with the write key masked.
    public var description: String {
        "TrackingConfiguration(endpoint: \(endpoint.absoluteString), format: \(format.rawValue), appId: \(appID), "
            + "writeKey: \(writeKey == nil ? "none" : "••••"), hash: \(hash))"
    }
}
