import Foundation

/// Where the store lives when no path is given, and what a relative store path is relative to.
///
/// The SDK's folder, named ``folderName``:
/// - iOS, watchOS, visionOS: `Library/Application Support/TrackingAnalytics` of the app's
///   container (each app has its own);
/// - tvOS: `Library/Caches/TrackingAnalytics` (tvOS keeps no Application Support: the system may
///   empty it when space runs low, which loses the events not yet delivered, nothing else);
/// - macOS: `~/Library/Application Support/<bundle id>/TrackingAnalytics` (the bundle id, or the
///   program's name, keeps two apps apart: that folder is shared outside the sandbox);
/// - Linux: `$XDG_DATA_HOME/TrackingAnalytics/<program>`, or
///   `~/.local/share/TrackingAnalytics/<program>` when `XDG_DATA_HOME` is unset or relative.
///
/// On Apple platforms the folder is excluded from backups (`isExcludedFromBackup`): the queue
/// is transient, and a restored copy would deliver its events a second time. A relative store
/// path is relative to this folder there, never to the working directory (an iOS app's is `/`,
/// read-only); on Linux it stays relative to the working directory, as a command-line user
/// expects (or to the configuration file's folder, when loaded from one).
struct StoreLocation: Equatable, Sendable {
    /// The kinds of platform the rules tell apart.
    enum Platform: Sendable {
        /// iOS, watchOS, visionOS (and Mac Catalyst).
        case iOSFamily
        /// tvOS.
        case tvOS
        /// macOS.
        case macOS
        /// Linux and anything else.
        case linux

        /// The platform this runs on.
        static var current: Platform {
            #if os(tvOS)
            .tvOS
            #elseif os(iOS) || os(watchOS) || os(visionOS)
            .iOSFamily
            #elseif os(macOS)
            .macOS
            #else
            .linux
            #endif
        }

        /// Whether the platform is one of Apple's.
        var isApple: Bool { self != .linux }
    }

    /// The name of the SDK's folder.
    static let folderName = "TrackingAnalytics"
    /// The store file's name in it.
    static let fileName = "events.sqlite"

    /// The SDK's folder.
    let folder: String
    /// Whether the folder is to be excluded from backups.
    let excludedFromBackup: Bool

    /// The default store file.
    var defaultStorePath: String { folder + "/" + Self.fileName }

    /// The SDK's folder on `platform`, from the system folders given (the seam tests use).
    /// - Parameters:
    ///   - applicationSupport: the user's Application Support folder (Apple).
    ///   - caches: the user's Caches folder (tvOS).
    ///   - environment: the process environment (`XDG_DATA_HOME`, Linux).
    ///   - home: the home folder.
    ///   - application: the bundle id or program name (macOS, Linux).
    static func on(_ platform: Platform, applicationSupport: String, caches: String, environment: [String: String],
                   home: String, application: String) -> StoreLocation {
        let folder: String
        switch platform {
        case .iOSFamily: folder = applicationSupport + "/" + folderName
        case .tvOS: folder = caches + "/" + folderName
        case .macOS: folder = applicationSupport + "/" + application + "/" + folderName
        case .linux:
            let data = environment["XDG_DATA_HOME"].flatMap { $0.hasPrefix("/") ? $0 : nil } ?? home + "/.local/share"
            folder = data + "/" + folderName + "/" + application
        }
        return StoreLocation(folder: folder, excludedFromBackup: platform.isApple)
    }

    /// The SDK's folder on this platform.
    static var current: StoreLocation {
        let files = FileManager.default
        let home = NSHomeDirectory()
        let name = Bundle.main.bundleIdentifier ?? ProcessInfo.processInfo.processName
        return on(.current,
                  applicationSupport: files.urls(for: .applicationSupportDirectory, in: .userDomainMask).first?.path ?? home + "/Library/Application Support",
                  caches: files.urls(for: .cachesDirectory, in: .userDomainMask).first?.path ?? home + "/Library/Caches",
                  environment: ProcessInfo.processInfo.environment, home: home, application: name)
    }

    /// `path` made absolute by the rules above: unchanged when absolute; on Apple platforms
    /// under ``folder``; on Linux under `configurationFolder` when given, else left relative to
    /// the working directory.
    func resolve(_ path: String, on platform: Platform, configurationFolder: String? = nil) -> String {
        if path.hasPrefix("/") { return path }
        if platform.isApple { return folder + "/" + path }
        guard let configurationFolder else { return path }
        return configurationFolder + (configurationFolder.hasSuffix("/") ? "" : "/") + path
    }

    /// Excludes ``folder`` from backups when the rules say so and it exists (Apple).
    /// - Returns: why it could not be done, or `nil`.
    func excludeFromBackup() -> String? {
        #if canImport(Darwin)
        guard excludedFromBackup, FileManager.default.fileExists(atPath: folder) else { return nil }
        var url = URL(fileURLWithPath: folder, isDirectory: true)
        var values = URLResourceValues()
        values.isExcludedFromBackup = true
        do { try url.setResourceValues(values) } catch { return "cannot exclude \(folder) from backups: \(error.localizedDescription)" }
        #endif
        return nil
    }
}
