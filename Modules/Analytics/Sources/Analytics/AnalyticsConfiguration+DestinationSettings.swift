import Dispatcher
import Tracking
import Foundation

extension AnalyticsConfiguration {
    /// Where events are delivered: Segment, Snowplow, an NDJSON file, or nowhere (stored only).
    ///
    /// JSON: `{"format": "segment", "endpoint": "https://api.segment.io", "writeKey": "…",
    /// "writeKeyIn": "header", "compression": "gzip"}`, `{"format": "snowplow", "endpoint": "https://collector…"}`,
    /// `{"format": "ndjson", "endpoint": "outbox.ndjson"}` or `{"format": "none"}`.
    ///
    /// The write key is never printed: ``description``, `debugDescription` and the mirror
    /// leave it out.
    public struct DestinationSettings: Sendable, Equatable, CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
        /// The wire format.
        public enum Format: String, Sendable, Codable, CaseIterable {
            /// Stored only; nothing is delivered.
            case none
            /// Segment's batch API (`POST /v1/batch`).
            case segment
            /// The Snowplow collector protocol (`POST /com.snowplowanalytics.snowplow/tp2`).
            case snowplow
            /// One JSON object per line, appended to a local file.
            case ndjson
        }

        /// The wire format.
        public var format: Format
        /// The API or collector base (`https://`, or `http://` for a loopback host), or the
        /// NDJSON file (a path or a `file://` URL).
        public var endpoint: URL?
        /// Segment's write key.
        public var writeKey: String?
        /// Where Segment's write key is sent: Basic authorization (JSON `"header"`, the default)
        /// or the body's `writeKey` field (JSON `"body"`).
        public var authentication: SegmentAuthentication
        /// The most bytes of events in one request; `nil` keeps the destination's own limit.
        public var maxBatchBytes: Int?
        /// How request bodies travel (JSON `"compression": "gzip"` or `"plain"`); `nil` keeps the
        /// format's default: gzip for Segment, plain for Snowplow (see `RequestCompression`).
        /// Only for the HTTP formats.
        public var compression: RequestCompression?

        /// Creates a destination.
        public init(
            format: Format, endpoint: URL? = nil, writeKey: String? = nil,
            authentication: SegmentAuthentication = .basic, maxBatchBytes: Int? = nil,
            compression: RequestCompression? = nil
        ) {
            self.format = format
            self.endpoint = endpoint
            self.writeKey = writeKey
            self.authentication = authentication
            self.maxBatchBytes = maxBatchBytes
            self.compression = compression
        }

        /// Stored only: nothing is delivered until the configuration names a destination.
        public static let none = DestinationSettings(format: .none)

        /// Segment's batch API at `endpoint` (for example `https://api.segment.io`).
        public static func segment(endpoint: URL, writeKey: String, authentication: SegmentAuthentication = .basic) -> DestinationSettings {
            DestinationSettings(format: .segment, endpoint: endpoint, writeKey: writeKey, authentication: authentication)
        }

        /// A Snowplow collector at `endpoint`; the app id is the configuration's ``AnalyticsConfiguration/appID``.
        public static func snowplow(endpoint: URL) -> DestinationSettings {
            DestinationSettings(format: .snowplow, endpoint: endpoint)
        }

        /// An NDJSON file, one event per line.
        public static func ndjson(file: URL) -> DestinationSettings {
            DestinationSettings(format: .ndjson, endpoint: file)
        }

        /// `segment https://api.segment.io (write key set)`; never the key itself.
        public var description: String {
            var text = format.rawValue
            if let endpoint { text += " " + (endpoint.isFileURL ? endpoint.path : EndpointURL.redacted(endpoint)) }
            if writeKey != nil { text += " (write key set)" }
            return text
        }

        /// The same as ``description``.
        public var debugDescription: String { description }

        /// The format, endpoint and limit; the write key is left out.
        public var customMirror: Mirror {
            Mirror(self, children: ["format": format, "endpoint": endpoint as Any, "maxBatchBytes": maxBatchBytes as Any,
                                    "compression": compression as Any])
        }

        /// Checks the settings without building anything.
        /// - Throws: ``ConfigurationError`` naming the `destination.…` field at fault.
        func validate() throws {
            if let maxBatchBytes, maxBatchBytes < 1024 {
                throw ConfigurationError(field: "destination.maxBatchBytes", reason: "must be at least 1024, got \(maxBatchBytes)")
            }
            if let writeKey, writeKey.isEmpty {
                throw ConfigurationError(field: "destination.writeKey", reason: "must not be empty when given")
            }
            if let compression, format != .segment, format != .snowplow {
                throw ConfigurationError(field: "destination.compression",
                                         reason: "is only used by formats segment and snowplow (format is \(format.rawValue), compression \(compression.rawValue))")
            }
            if format != .segment, writeKey != nil {
                throw ConfigurationError(field: "destination.writeKey", reason: "is only used by format segment (format is \(format.rawValue))")
            }
            guard format != .none else {
                if endpoint != nil {
                    throw ConfigurationError(field: "destination.endpoint", reason: "is not used by format none; name a format")
                }
                return
            }
            if format == .segment, writeKey == nil {
                throw ConfigurationError(field: "destination.writeKey", reason: "is required for format segment")
            }
            _ = try checkedEndpoint()
        }

        /// The endpoint, checked the way delivery will use it.
        private func checkedEndpoint() throws -> URL {
            guard let endpoint else { throw ConfigurationError(field: "destination.endpoint", reason: "is required for format \(format.rawValue)") }
            do {
                if format == .ndjson {
                    return try EndpointURL.validateFile(endpoint.isFileURL ? endpoint : URL(fileURLWithPath: endpoint.path))
                }
                return try EndpointURL.validate(endpoint)
            } catch {
                throw ConfigurationError(field: "destination.endpoint", reason: "\(error)")
            }
        }

        /// Builds the Dispatcher's destination; `nil` for ``Format/none``.
        /// - Throws: ``ConfigurationError`` naming the field when a setting is not acceptable.
        func make(appID: String) throws -> (any Destination)? {
            try validate()
            guard format != .none else { return nil }
            let url = try checkedEndpoint()
            do {
                switch format {
                case .none:
                    return nil
                case .segment:
                    return try SegmentDestination(
                        endpoint: url, writeKey: writeKey ?? "", authentication: authentication,
                        maxBatchBytes: maxBatchBytes ?? 400_000, compression: compression ?? .gzip)
                case .snowplow:
                    return try SnowplowDestination(endpoint: url, appID: appID, maxBatchBytes: maxBatchBytes ?? 200_000,
                                                   compression: compression ?? .plain)
                case .ndjson:
                    return NDJSONFileDestination(fileURL: url, maxBatchBytes: maxBatchBytes ?? 4_000_000)
                }
            } catch {
                throw ConfigurationError(field: "destination.endpoint", reason: "\(error)")
            }
        }
    }
}

extension AnalyticsConfiguration.DestinationSettings: Codable {
    private enum CodingKeys: String, CodingKey, CaseIterable { case format, endpoint, writeKey, writeKeyIn, maxBatchBytes, compression }

    /// Decodes a destination; unknown keys are errors.
    public init(from decoder: any Decoder) throws {
        try ConfigurationDecoder.rejectUnknownKeys(CodingKeys.self, in: decoder)
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let name = try container.decode(String.self, forKey: .format)
        guard let format = Format(rawValue: name) else {
            throw DecodingError.dataCorruptedError(
                forKey: .format, in: container,
                debugDescription: "unknown format '\(name)' (known: \(Format.allCases.map(\.rawValue).joined(separator: ", ")))")
        }
        self.init(format: format)
        if let text = try container.decodeIfPresent(String.self, forKey: .endpoint) {
            // A plain path is a file; a relative one stays relative until the configuration
            // file's folder is known.
            guard !text.isEmpty, let url = !text.contains("://") ? URL(fileURLWithPath: text, isDirectory: false) : URL(string: text) else {
                throw DecodingError.dataCorruptedError(forKey: .endpoint, in: container, debugDescription: "is not a URL: '\(text)'")
            }
            endpoint = url
        }
        writeKey = try container.decodeIfPresent(String.self, forKey: .writeKey)
        switch try container.decodeIfPresent(String.self, forKey: .writeKeyIn) ?? "header" {
        case "header": authentication = .basic
        case "body": authentication = .body
        case let other:
            throw DecodingError.dataCorruptedError(forKey: .writeKeyIn, in: container, debugDescription: "must be \"header\" or \"body\", got '\(other)'")
        }
        maxBatchBytes = try container.decodeIfPresent(Int.self, forKey: .maxBatchBytes)
        if let name = try container.decodeIfPresent(String.self, forKey: .compression) {
            guard let known = RequestCompression(rawValue: name) else {
                throw DecodingError.dataCorruptedError(
                    forKey: .compression, in: container,
                    debugDescription: "unknown compression '\(name)' (known: \(RequestCompression.allCases.map(\.rawValue).joined(separator: ", ")))")
            }
            compression = known
        }
    }

    /// The endpoint as a configuration writes it: a file's path, else the URL.
    var endpointText: String? { endpoint.map { $0.isFileURL ? $0.path : $0.absoluteString } }

    /// Where the write key goes, as a configuration names it: `"body"` or `"header"`.
    var writeKeyInName: String { authentication == .body ? "body" : "header" }

    /// Encodes the destination; the write key is written as given (keep such files private).
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(format.rawValue, forKey: .format)
        try container.encodeIfPresent(endpointText, forKey: .endpoint)
        try container.encodeIfPresent(writeKey, forKey: .writeKey)
        try container.encode(writeKeyInName, forKey: .writeKeyIn)
        try container.encodeIfPresent(maxBatchBytes, forKey: .maxBatchBytes)
        try container.encodeIfPresent(compression?.rawValue, forKey: .compression)
    }
}
