@testable import DataQuality
import Foundation
import Testing

/// Which model a device reports, given what its platform offers.
@Suite("Device model")
struct DeviceModelTests {
    @Test("in a simulator, the simulated device wins over the Mac it runs on")
    func simulatorWins() {
        #expect(DeviceModel.choose(simulatorModel: "iPhone15,2", hardwareModel: "MacBookPro18,3", machine: "arm64") == "iPhone15,2")
    }

    @Test("on a Mac, hw.model wins over uname's architecture")
    func macUsesHardwareModel() {
        #expect(DeviceModel.choose(simulatorModel: nil, hardwareModel: "Mac14,2", machine: "arm64") == "Mac14,2")
    }

    @Test("on a device, uname's machine is the model")
    func deviceUsesMachine() {
        #expect(DeviceModel.choose(simulatorModel: nil, hardwareModel: nil, machine: "iPhone15,2") == "iPhone15,2")
    }

    @Test("empty values count as absent; nothing at all is unknown")
    func emptyIsAbsent() {
        #expect(DeviceModel.choose(simulatorModel: "", hardwareModel: "", machine: "x86_64") == "x86_64")
        #expect(DeviceModel.choose(simulatorModel: nil, hardwareModel: nil, machine: nil) == "unknown")
    }

    @Test("on Linux the model is uname's machine and the OS is linux")
    func linuxDevice() {
        let device = DeviceInfo.current()
        #expect(device.model == DeviceModel.machine())
        #if os(Linux)
        #expect(device.osType == "linux" && device.osName == "Linux")
        #endif
    }
}
