import Foundation

/// The device, operating system, locale and time zone, gathered once (``CurrentDeviceInfo``
/// keeps the locale and time zone current).
public struct DeviceInfo: Sendable, Equatable, Codable {
    /// The OS family as Snowplow names it: `ios`, `tvos`, `watchos`, `visionos`, `osx`, `linux`,
    /// `android`, `windows`.
    public var osType: String
    /// The OS name as people say it: `iOS`, `macOS`, `visionOS`, `Linux`.
    public var osName: String
    /// The OS version, for example `17.4.1` or a Linux kernel release.
    public var osVersion: String
    /// The device maker, or `unknown`.
    public var manufacturer: String
    /// The device model (`iPhone15,2`, `MacBookPro18,3`, or the machine architecture on Linux).
    public var model: String
    /// The locale identifier, for example `en_US`.
    public var locale: String
    /// The language code, for example `en`.
    public var language: String?
    /// The time zone identifier, for example `Europe/Berlin`.
    public var timeZone: String

    /// Creates device info.
    public init(
        osType: String, osName: String, osVersion: String, manufacturer: String, model: String,
        locale: String, language: String?, timeZone: String
    ) {
        self.osType = osType
        self.osName = osName
        self.osVersion = osVersion
        self.manufacturer = manufacturer
        self.model = model
        self.locale = locale
        self.language = language
        self.timeZone = timeZone
    }

    /// The locale, language and time zone together.
    public var region: DeviceRegion {
        get { DeviceRegion(locale: locale, language: language, timeZone: timeZone) }
        set {
            locale = newValue.locale
            language = newValue.language
            timeZone = newValue.timeZone
        }
    }

    /// The device this process runs on. The model is the simulated device's in a simulator,
    /// `hw.model` on a Mac, `uname`'s machine elsewhere (see `DeviceModel`); the region is
    /// ``DeviceRegion/current()``; on Linux the manufacturer comes from DMI when readable.
    public static func current() -> DeviceInfo {
        let version = ProcessInfo.processInfo.operatingSystemVersion
        let versionText = "\(version.majorVersion).\(version.minorVersion).\(version.patchVersion)"
        #if os(iOS)
        let (type, name, maker) = ("ios", "iOS", "Apple Inc.")
        #elseif os(tvOS)
        let (type, name, maker) = ("tvos", "tvOS", "Apple Inc.")
        #elseif os(watchOS)
        let (type, name, maker) = ("watchos", "watchOS", "Apple Inc.")
        #elseif os(visionOS)
        let (type, name, maker) = ("visionos", "visionOS", "Apple Inc.")
        #elseif os(macOS)
        let (type, name, maker) = ("osx", "macOS", "Apple Inc.")
        #elseif os(Linux)
        let (type, name, maker) = ("linux", "Linux", dmiValue("sys_vendor") ?? "unknown")
        #elseif os(Windows)
        let (type, name, maker) = ("windows", "Windows", "unknown")
        #else
        let (type, name, maker) = ("unknown", "unknown", "unknown")
        #endif
        let region = DeviceRegion.current()
        return DeviceInfo(
            osType: type,
            osName: name,
            osVersion: versionText,
            manufacturer: maker,
            model: DeviceModel.current(),
            locale: region.locale,
            language: region.language,
            timeZone: region.timeZone
        )
    }

    private static func dmiValue(_ name: String) -> String? {
        guard let text = try? String(contentsOfFile: "/sys/class/dmi/id/" + name, encoding: .utf8) else { return nil }
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        return trimmed.isEmpty ? nil : trimmed
    }
}
