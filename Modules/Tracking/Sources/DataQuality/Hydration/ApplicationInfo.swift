import Foundation

/// The host application's name, version and build.
public struct ApplicationInfo: Sendable, Equatable, Codable {
    /// The app's name.
    public var name: String
    /// The app's marketing version, for example `2.4.1`.
    public var version: String
    /// The build number, when known.
    public var build: String?
    /// The bundle or package identifier, when known.
    public var identifier: String?

    /// Creates app info.
    public init(name: String, version: String, build: String? = nil, identifier: String? = nil) {
        self.name = name
        self.version = version
        self.build = build
        self.identifier = identifier
    }

    /// What the main bundle says, falling back to the process name and `unknown`.
    public static func current() -> ApplicationInfo {
        let info = Bundle.main.infoDictionary ?? [:]
        return ApplicationInfo(
            name: (info["CFBundleDisplayName"] as? String) ?? (info["CFBundleName"] as? String) ?? ProcessInfo.processInfo.processName,
            version: (info["CFBundleShortVersionString"] as? String) ?? "unknown",
            build: info["CFBundleVersion"] as? String,
            identifier: Bundle.main.bundleIdentifier
        )
    }
}
