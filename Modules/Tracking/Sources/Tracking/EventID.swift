import Foundation

/// Makes event ids: UUID version 7 (RFC 9562), time-ordered so that store indexes stay local.
public enum EventID {
    /// A new UUIDv7 for the current time.
    public static func make(at date: Date = Date()) -> UUID {
        let milliseconds = UInt64(max(0, date.timeIntervalSince1970 * 1000))
        var generator = SystemRandomNumberGenerator()
        let random = generator.next() as UInt64
        let randomHigh = generator.next() as UInt64
        var bytes = [UInt8](repeating: 0, count: 16)
        for index in 0..<6 { bytes[index] = UInt8(truncatingIfNeeded: milliseconds >> (40 - 8 * UInt64(index))) }
        bytes[6] = 0x70 | UInt8(truncatingIfNeeded: randomHigh & 0x0F)
        bytes[7] = UInt8(truncatingIfNeeded: randomHigh >> 8)
        bytes[8] = 0x80 | UInt8(truncatingIfNeeded: random & 0x3F)
        for index in 9..<16 { bytes[index] = UInt8(truncatingIfNeeded: random >> (8 * UInt64(index - 8))) }
        return UUID(uuid: (bytes[0], bytes[1], bytes[2], bytes[3], bytes[4], bytes[5], bytes[6], bytes[7],
                           bytes[8], bytes[9], bytes[10], bytes[11], bytes[12], bytes[13], bytes[14], bytes[15]))
    }
}
