@testable import Analytics
import Foundation
import Testing

/// Where the store lives with no path given, and what a relative path is relative to, on each
/// platform, decided through the seam (the platform and its folders are given).
@Suite("Analytics: store location")
struct StoreLocationTests {
    private static func location(_ platform: StoreLocation.Platform, environment: [String: String] = [:]) -> StoreLocation {
        StoreLocation.on(platform, applicationSupport: "/c/Library/Application Support", caches: "/c/Library/Caches",
                         environment: environment, home: "/home/u", application: "com.shop.app")
    }

    @Test("Apple platforms: Application Support (Caches on tvOS), in the SDK's folder, excluded from backups")
    func appleDefaults() {
        #expect(Self.location(.iOSFamily) == StoreLocation(folder: "/c/Library/Application Support/TrackingAnalytics", excludedFromBackup: true))
        #expect(Self.location(.tvOS) == StoreLocation(folder: "/c/Library/Caches/TrackingAnalytics", excludedFromBackup: true))
        #expect(Self.location(.macOS) == StoreLocation(folder: "/c/Library/Application Support/com.shop.app/TrackingAnalytics", excludedFromBackup: true))
        #expect(Self.location(.iOSFamily).defaultStorePath == "/c/Library/Application Support/TrackingAnalytics/events.sqlite")
    }

    @Test("Linux: $XDG_DATA_HOME, else ~/.local/share (a relative XDG_DATA_HOME is ignored), not excluded from anything")
    func linuxDefaults() {
        #expect(Self.location(.linux, environment: ["XDG_DATA_HOME": "/data"])
            == StoreLocation(folder: "/data/TrackingAnalytics/com.shop.app", excludedFromBackup: false))
        #expect(Self.location(.linux).folder == "/home/u/.local/share/TrackingAnalytics/com.shop.app")
        #expect(Self.location(.linux, environment: ["XDG_DATA_HOME": "relative"]).folder == "/home/u/.local/share/TrackingAnalytics/com.shop.app")
    }

    @Test("Relative paths: under the SDK's folder on Apple platforms (from a file too), the working directory or the file's folder on Linux")
    func relativePaths() {
        let apple = Self.location(.iOSFamily)
        #expect(apple.resolve("analytics/events.sqlite", on: .iOSFamily) == apple.folder + "/analytics/events.sqlite")
        #expect(apple.resolve("events.sqlite", on: .iOSFamily, configurationFolder: "/bundle") == apple.folder + "/events.sqlite")
        #expect(apple.resolve("/abs/events.sqlite", on: .iOSFamily) == "/abs/events.sqlite")
        let linux = Self.location(.linux)
        #expect(linux.resolve("analytics/events.sqlite", on: .linux) == "analytics/events.sqlite")
        #expect(linux.resolve("events.sqlite", on: .linux, configurationFolder: "/etc/app") == "/etc/app/events.sqlite")
        #expect(linux.resolve("/abs/events.sqlite", on: .linux, configurationFolder: "/etc/app") == "/abs/events.sqlite")
    }

    @Test("A configuration made without a store path uses the platform's default, absolute")
    func defaultConfiguration() {
        let configuration = AnalyticsConfiguration()
        #expect(configuration.storePath == StoreLocation.current.defaultStorePath)
        #expect(configuration.storePath.hasPrefix("/"))
        #if os(Linux)
        #expect(configuration.storePath.contains("/TrackingAnalytics/"))
        #expect(configuration.storePath.hasSuffix("/events.sqlite"))
        #endif
        #expect((try? configuration.validate()) != nil)
    }
}
