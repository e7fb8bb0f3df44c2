import DataQuality
import Foundation

/// What the runtime's data-quality stack is built from but its identity store, so that it can
/// be built again over the real store once that opens (see `StartGate`).
struct StackRecipe: Sendable {
    let configuration: QualityConfiguration
    let contract: DataContract?
    let diagnostics: Diagnostics
    /// The app, or `nil` to read it (``ApplicationInfo/current()``) when a stack is made.
    let application: ApplicationInfo?
    /// The device, or `nil` to read it (``DeviceInfo/current()``) when a stack is made.
    let device: DeviceInfo?
    /// The device kept current by the system's locale and time-zone notifications, if observed.
    let currentDevice: CurrentDeviceInfo?
    let providers: [any ContextProvider]
    /// The file of the installation's secret key of hashed redactions, beside the store.
    let redactionKeyPath: String

    /// The file of the redaction key of the store at `storePath`: `<store>.redaction-key`.
    static func redactionKeyPath(of storePath: String) -> String { storePath + ".redaction-key" }

    /// A stack over `store`, reporting to the runtime's one ``Diagnostics``. With `readingKey`
    /// (the store is readable), hashed redactions use the installation's key, made on first use;
    /// otherwise, or when the key file cannot be used (reported), a key of this stack's own.
    func make(store: any IdentityStore, readingKey: Bool = true) -> DataQualityStack {
        var key: RedactionKey?
        if readingKey, configuration.redaction == .hash, !configuration.sensitiveKeys.isEmpty {
            do {
                key = try RedactionKey.loadOrCreate(atPath: redactionKeyPath)
            } catch {
                diagnostics.record(.storage, code: "redaction_key", message: "\(error); hashes match only until the process ends")
            }
        }
        return DataQualityStack(
            configuration: configuration, store: store, contract: contract, diagnostics: diagnostics,
            application: application ?? .current(), device: device ?? currentDevice?.value ?? .current(),
            currentDevice: currentDevice, providers: providers,
            redactionKey: key)
    }
}
