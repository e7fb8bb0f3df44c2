#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The device model as ``DeviceInfo/model`` reports it, from what the platform offers.
enum DeviceModel {
    /// The environment variable in which the simulator names the device it simulates.
    static let simulatorVariable = "SIMULATOR_MODEL_IDENTIFIER"

    /// The model given what was read: the simulated device's (`iPhone15,2`) in a simulator, else
    /// the Mac's hardware model (`sysctl hw.model`, `MacBookPro18,3`) on macOS and Mac Catalyst,
    /// else `uname`'s machine (the hardware model on an iPhone, iPad, Apple TV, watch or Vision
    /// Pro; the architecture on Linux), else `unknown`. Empty values count as absent.
    static func choose(simulatorModel: String?, hardwareModel: String?, machine: String?) -> String {
        [simulatorModel, hardwareModel, machine].lazy.compactMap { $0 }.first { !$0.isEmpty } ?? "unknown"
    }

    /// The model of this device.
    static func current() -> String {
        #if targetEnvironment(simulator)
        let simulated = POSIXEnvironment.values(of: [simulatorVariable])[simulatorVariable]
        #else
        let simulated: String? = nil
        #endif
        #if canImport(Darwin) && (os(macOS) || targetEnvironment(macCatalyst))
        let hardware = SysctlHardwareModel.read()
        #else
        let hardware: String? = nil
        #endif
        return choose(simulatorModel: simulated, hardwareModel: hardware, machine: machine())
    }

    /// `uname`'s machine, or nil when it cannot be read.
    static func machine() -> String? {
        var system = utsname()
        guard uname(&system) == 0 else { return nil }
        let text = withUnsafeBytes(of: &system.machine) { buffer in
            String(decoding: buffer.prefix { $0 != 0 }, as: UTF8.self)
        }
        return text.isEmpty ? nil : text
    }
}
