import DataQuality
import Foundation

/// What the runtime's data-quality stack is built from but its identity store, so that it can
/// be built again over the real store once that opens (see `StartGate`).
struct StackRecipe: Sendable {
    let configuration: QualityConfiguration
    let contract: DataContract?
    let diagnostics: Diagnostics
    let application: ApplicationInfo
    let device: DeviceInfo
    /// The device kept current by the system's locale and time-zone notifications, if observed.
    let currentDevice: CurrentDeviceInfo?
    let providers: [any ContextProvider]

    /// A stack over `store`, reporting to the runtime's one ``Diagnostics``.
    func make(store: any IdentityStore) -> DataQualityStack {
        DataQualityStack(
            configuration: configuration, store: store, contract: contract, diagnostics: diagnostics,
            application: application, device: device, currentDevice: currentDevice, providers: providers)
    }
}
