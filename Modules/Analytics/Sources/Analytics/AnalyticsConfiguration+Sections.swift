import DataQuality
import Foundation
import Tracking

extension AnalyticsConfiguration {
    /// What is redacted before anything is stored or printed. JSON `{"keys": […], "mode": "hash"}`.
    public struct Redaction: Sendable, Equatable, Codable {
        /// userData and context keys whose values are redacted. Default `password`, `email`, `phone`.
        public var keys: [String]
        /// Replace with a keyed hash under the installation's secret key, `<store>.redaction-key`
        /// (default: pseudonymisation, equal values match within one installation), or remove the key.
        public var mode: QualityConfiguration.Redaction

        /// Creates redaction settings.
        public init(keys: [String] = QualityConfiguration.defaultSensitiveKeys, mode: QualityConfiguration.Redaction = .hash) {
            self.keys = keys
            self.mode = mode
        }

        private enum CodingKeys: String, CodingKey, CaseIterable { case keys, mode }

        /// Decodes the settings; absent keys keep their defaults, unknown keys are errors.
        public init(from decoder: any Decoder) throws {
            try ConfigurationDecoder.rejectUnknownKeys(CodingKeys.self, in: decoder)
            let container = try decoder.container(keyedBy: CodingKeys.self)
            self.init()
            keys = try container.decodeIfPresent([String].self, forKey: .keys) ?? keys
            mode = try container.decodeIfPresent(QualityConfiguration.Redaction.self, forKey: .mode) ?? mode
        }
    }

    /// Session timeouts, in seconds. JSON `{"foregroundTimeout": 1800, "backgroundTimeout": 600}`.
    public struct Session: Sendable, Equatable, Codable {
        /// Inactivity in the foreground that ends a session. Default 30 minutes.
        public var foregroundTimeout: TimeInterval
        /// Inactivity in the background that ends a session. Default 30 minutes.
        public var backgroundTimeout: TimeInterval

        /// Creates session settings.
        public init(foregroundTimeout: TimeInterval = 1800, backgroundTimeout: TimeInterval = 1800) {
            self.foregroundTimeout = foregroundTimeout
            self.backgroundTimeout = backgroundTimeout
        }

        private enum CodingKeys: String, CodingKey, CaseIterable { case foregroundTimeout, backgroundTimeout }

        /// Decodes the settings; absent keys keep their defaults, unknown keys are errors.
        public init(from decoder: any Decoder) throws {
            try ConfigurationDecoder.rejectUnknownKeys(CodingKeys.self, in: decoder)
            let container = try decoder.container(keyedBy: CodingKeys.self)
            self.init()
            foregroundTimeout = try container.decodeIfPresent(Double.self, forKey: .foregroundTimeout) ?? foregroundTimeout
            backgroundTimeout = try container.decodeIfPresent(Double.self, forKey: .backgroundTimeout) ?? backgroundTimeout
        }
    }

    /// What happens to the runtime's own problems (storage, delivery, contract violations).
    /// They are always counted in ``Analytics/diagnostics``. JSON `{"trackAsEvents": true,
    /// "burst": 5, "perMinute": 6}`.
    public struct DiagnosticsOptions: Sendable, Equatable, Codable {
        /// Also send each problem as an event of category `Tracking`, name `error`, so it reaches the pipeline.
        /// Default `true`.
        public var trackAsEvents: Bool
        /// How many problem events may be sent at once.
        public var burst: Int
        /// How many problem events per minute after a burst; the rest are counted, not sent.
        public var perMinute: Double

        /// Creates diagnostics settings.
        public init(trackAsEvents: Bool = true, burst: Int = 5, perMinute: Double = 6) {
            self.trackAsEvents = trackAsEvents
            self.burst = burst
            self.perMinute = perMinute
        }

        private enum CodingKeys: String, CodingKey, CaseIterable { case trackAsEvents, burst, perMinute }

        /// Decodes the settings; absent keys keep their defaults, unknown keys are errors.
        public init(from decoder: any Decoder) throws {
            try ConfigurationDecoder.rejectUnknownKeys(CodingKeys.self, in: decoder)
            let container = try decoder.container(keyedBy: CodingKeys.self)
            self.init()
            trackAsEvents = try container.decodeIfPresent(Bool.self, forKey: .trackAsEvents) ?? trackAsEvents
            burst = try container.decodeIfPresent(Int.self, forKey: .burst) ?? burst
            perMinute = try container.decodeIfPresent(Double.self, forKey: .perMinute) ?? perMinute
        }
    }

    /// How the runtime follows the app and the process. JSON `{"observeNotifications": true,
    /// "drainOnTerminationSignals": false, "drainTimeout": 5}`.
    public struct Lifecycle: Sendable, Equatable, Codable {
        /// Observe the app's background and foreground notifications by name through
        /// `NotificationCenter.default` (UIKit's, WatchKit's, app extensions', AppKit's hiding
        /// and occlusion), protected data, locale and time-zone changes, and network
        /// reachability (`NWPathMonitor`). Default `true`.
        public var observeNotifications: Bool
        /// Opt-in: on SIGTERM or SIGINT, drain (persist everything sent, try one delivery) for
        /// at most ``drainTimeout`` seconds, then exit with the signal's status. Default `false`.
        /// Meant for command-line programs and servers; an app on Apple platforms is not
        /// ended by these signals.
        public var drainOnTerminationSignals: Bool
        /// The longest a termination drain may take, in seconds. Default 5.
        public var drainTimeout: TimeInterval

        /// Creates lifecycle settings.
        public init(observeNotifications: Bool = true, drainOnTerminationSignals: Bool = false, drainTimeout: TimeInterval = 5) {
            self.observeNotifications = observeNotifications
            self.drainOnTerminationSignals = drainOnTerminationSignals
            self.drainTimeout = drainTimeout
        }

        private enum CodingKeys: String, CodingKey, CaseIterable { case observeNotifications, drainOnTerminationSignals, drainTimeout }

        /// Decodes the settings; absent keys keep their defaults, unknown keys are errors.
        public init(from decoder: any Decoder) throws {
            try ConfigurationDecoder.rejectUnknownKeys(CodingKeys.self, in: decoder)
            let container = try decoder.container(keyedBy: CodingKeys.self)
            self.init()
            observeNotifications = try container.decodeIfPresent(Bool.self, forKey: .observeNotifications) ?? observeNotifications
            drainOnTerminationSignals = try container.decodeIfPresent(Bool.self, forKey: .drainOnTerminationSignals) ?? drainOnTerminationSignals
            drainTimeout = try container.decodeIfPresent(Double.self, forKey: .drainTimeout) ?? drainTimeout
        }
    }
}
