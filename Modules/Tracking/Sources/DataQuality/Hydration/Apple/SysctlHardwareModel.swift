// Apple-only: a Mac's hardware model from Darwin's sysctl. Type-checked on Linux by .ci/apple-sdk/typecheck.sh.
#if canImport(Darwin)
import Darwin

/// The hardware model a Mac names itself by (`MacBookPro18,3`, `Mac14,2`): `sysctl hw.model`.
/// On iPhone and iPad `hw.model` is an internal board name, so ``DeviceModel`` reads it on
/// macOS and Mac Catalyst only.
enum SysctlHardwareModel {
    /// The value of `hw.model`, or nil when it cannot be read.
    static func read() -> String? {
        var size = 0
        guard sysctlbyname("hw.model", nil, &size, nil, 0) == 0, size > 0 else { return nil }
        var buffer = [CChar](repeating: 0, count: size)
        guard sysctlbyname("hw.model", &buffer, &size, nil, 0) == 0 else { return nil }
        let text = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return text.isEmpty ? nil : text
    }
}
#endif
