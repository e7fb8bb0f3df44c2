import Dispatcher
import Foundation
import Tracking

extension AnalyticsConfiguration {
    /// The local web inspector: a page and a small JSON API on `http://127.0.0.1:PORT`, showing
    /// events live, their payload as it goes on the wire, their timeline and the runtime's
    /// health (see ``Analytics/inspectorURL``). Off unless set. JSON `{"port": 8765}`; `{}`
    /// takes any free port.
    ///
    /// With it on, the store keeps at least the last 1,000 delivered events (see
    /// ``AnalyticsConfiguration/deliveredHistory``), so the page can show what was delivered.
    ///
    /// It listens on the loopback interface only and refuses requests whose `Host` or `Origin`
    /// is not loopback. It serves no write key and no redacted value (they are never stored).
    /// Meant for development builds: leave it unset in a release.
    public struct Inspector: Sendable, Equatable, Codable {
        /// The port on 127.0.0.1; 0 (the default) takes any free port.
        public var port: Int

        /// Creates inspector settings.
        public init(port: Int = 0) {
            self.port = port
        }

        private enum CodingKeys: String, CodingKey, CaseIterable { case port }

        /// Decodes the settings; an absent port takes any free one, unknown keys are errors.
        public init(from decoder: any Decoder) throws {
            try ConfigurationDecoder.rejectUnknownKeys(CodingKeys.self, in: decoder)
            let container = try decoder.container(keyedBy: CodingKeys.self)
            self.init(port: try container.decodeIfPresent(Int.self, forKey: .port) ?? 0)
        }
    }
}
