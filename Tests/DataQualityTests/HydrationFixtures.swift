@testable import DataQuality

/// The application and devices the hydration tests describe, in one place.
enum HydrationFixtures {
    /// A phone, with a locale, a language and a time zone.
    static let phone = DeviceInfo(
        osType: "ios", osName: "iOS", osVersion: "17.4.1", manufacturer: "Apple Inc.", model: "iPhone15,2",
        locale: "en_US", language: "en", timeZone: "Europe/Berlin"
    )
    /// A Linux machine in UTC.
    static let linux = DeviceInfo(
        osType: "linux", osName: "Linux", osVersion: "6.1.0", manufacturer: "unknown", model: "x86_64",
        locale: "en_US", language: "en", timeZone: "UTC"
    )
    /// The app the phone runs.
    static let shop = ApplicationInfo(name: "Shop", version: "2.4.1", build: "812")
}
