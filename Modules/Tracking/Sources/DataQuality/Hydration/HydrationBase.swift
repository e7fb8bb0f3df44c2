import Tracking

/// The fixed facts every shared context starts from (app, OS, device, locale, time zone,
/// library, configuration hash, and the Snowplow `mobile_context` entity), made for a device.
/// ``ContextHydrator`` makes them once, and again after ``CurrentDeviceInfo`` reports a change.
struct HydrationBase {
    /// The app's name and version.
    let application: ApplicationInfo
    /// The active configuration's hash, if any.
    let configurationHash: String?
    /// Whether the Snowplow entities are added.
    let snowplowEntities: Bool

    /// The base values and the `mobile_context` entity for `device`.
    func facts(for device: DeviceInfo) -> (values: UserData, mobileEntity: UserDataValue?) {
        var values: UserData = [
            ContextKey.app: .object([
                "name": .string(application.name),
                "version": .string(application.version),
            ].merging(application.build.map { ["build": .string($0)] } ?? [:]) { first, _ in first }),
            ContextKey.os: ["name": .string(device.osName), "version": .string(device.osVersion)],
            ContextKey.device: ["manufacturer": .string(device.manufacturer), "model": .string(device.model)],
            ContextKey.locale: .string(ContextHydrator.languageTag(device.locale)),
            ContextKey.timezone: .string(device.timeZone),
            ContextKey.library: ["name": .string(TrackingLibrary.name), "version": .string(TrackingLibrary.version)],
        ]
        if let configurationHash { values[ContextKey.configurationHash] = .string(configurationHash) }
        return (values, snowplowEntities ? SnowplowEntity.mobileContext(device) : nil)
    }
}
