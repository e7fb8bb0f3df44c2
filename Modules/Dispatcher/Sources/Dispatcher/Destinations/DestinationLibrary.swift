import Tracking

/// The library name and version a destination reports in its payloads.
struct DestinationLibrary: Sendable, Equatable {
    /// The library name.
    var name: String
    /// The library version.
    var version: String

    /// Creates a library description.
    init(name: String, version: String) {
        self.name = name
        self.version = version
    }

    /// The `User-Agent` header value of requests, `name/version`.
    var userAgent: String { name + "/" + version }

    /// This framework, as ``Tracking/TrackingLibrary`` defines it (`swift-tracking` `0.1.0`).
    static let tracking = DestinationLibrary(name: TrackingLibrary.name, version: TrackingLibrary.version)
}
