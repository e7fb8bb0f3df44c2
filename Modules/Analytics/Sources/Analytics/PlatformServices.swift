// apple-typecheck: compose Apple/*.swift BackgroundTimeProvider.swift ReachabilityMonitor.swift ../../../Tracking/Sources/Tracking/Concurrency/LockedValue.swift
import Foundation

/// What the runtime takes from the platform it runs on: where lifecycle notifications are
/// posted, background time, network reachability and the Mac app's visibility. ``system`` picks
/// the adapters of `Apple/` on Apple platforms and does-nothing ones on Linux; tests pass fakes.
// Unchecked: `notifications` is a `NotificationCenter`, thread-safe but not marked `Sendable` in
// every SDK; every property is a constant and the others are `Sendable`.
struct PlatformServices: @unchecked Sendable {
    /// Where the lifecycle, protected-data and locale notifications are observed.
    let notifications: NotificationCenter
    /// Where background time is asked for.
    let backgroundTime: any BackgroundTimeProvider
    /// What reports network reachability.
    let reachability: any ReachabilityMonitor
    /// Whether any of a Mac app's windows can be seen; nil where that cannot be known.
    let isApplicationVisible: @Sendable () -> Bool?
    /// Whether the system suspends the process in the background (iOS, iPadOS, tvOS, watchOS,
    /// visionOS; not macOS, Mac Catalyst or Linux): the storage is then released in the
    /// background and taken back in the foreground (see ``Analytics/handle(_:)``).
    var suspendsInBackground = false

    /// The services of this process.
    ///
    /// Background time: an app on UIKit asks `UIApplication` for a background task; an app
    /// extension (its bundle ends in `.appex`, see ``isAppExtension(bundlePath:)``), and watchOS,
    /// where `UIApplication` does not exist, use `ProcessInfo.performExpiringActivity`. macOS and
    /// Linux suspend nothing: no background time is asked for.
    static var system: PlatformServices {
        PlatformServices(
            notifications: .default,
            backgroundTime: systemBackgroundTime(),
            reachability: systemReachability(),
            isApplicationVisible: systemVisibility(),
            suspendsInBackground: systemSuspends)
    }

    /// Whether this platform suspends apps in the background.
    private static var systemSuspends: Bool {
        #if (os(iOS) || os(tvOS) || os(watchOS) || os(visionOS)) && !targetEnvironment(macCatalyst)
        return true
        #else
        return false
        #endif
    }

    /// Whether the bundle at `bundlePath` is an app extension: its path ends in `.appex`.
    static func isAppExtension(bundlePath: String) -> Bool {
        var path = Substring(bundlePath)
        while path.hasSuffix("/") { path = path.dropLast() }
        return path.hasSuffix(".appex")
    }

    /// Reads `Bundle.main` only where it decides something: on Linux its first use lists the
    /// executable's folder, on the thread that starts `Analytics`.
    private static func systemBackgroundTime() -> any BackgroundTimeProvider {
        #if canImport(UIKit) && !os(watchOS)
        if !isAppExtension(bundlePath: Bundle.main.bundlePath) { return UIKitBackgroundTime() }
        #endif
        #if canImport(UIKit)
        return ExpiringActivityBackgroundTime()
        #else
        return NoBackgroundTime()
        #endif
    }

    private static func systemReachability() -> any ReachabilityMonitor {
        #if canImport(Network)
        return NetworkPathReachability()
        #else
        return NoReachabilityMonitor()
        #endif
    }

    private static func systemVisibility() -> @Sendable () -> Bool? {
        #if canImport(AppKit) && !targetEnvironment(macCatalyst)
        return { AppKitVisibility.isApplicationVisible() }
        #else
        return { nil }
        #endif
    }
}
