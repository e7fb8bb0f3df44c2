import Foundation

/// The compact binary form the sender writes an event's userData, own context and flags in,
/// instead of JSON; the store keeps it, and every read path turns it into JSON
/// (``BinaryValueReader``).
///
/// ```
/// blob:   0x01 (format) | value
/// value:  tag u8 | payload
///   0x00 null | 0x01 false | 0x02 true
///   0x03 int: i64 | 0x04 double: IEEE-754 bits u64 | 0x06 date: i64 milliseconds since 1970
///   0x05 string: u32 byte count | UTF-8 bytes
///   0x07 array: u32 count | values
///   0x08 object: u32 count | (u32 key byte count | key UTF-8 bytes | value) × count
/// ```
/// Little-endian. A JSON blob (of rows written before, or the empty `{}` and `[]` constants)
/// starts with `{` or `[`, never with the format byte, so both forms can sit in one store.
enum BinaryValue {
    /// The first byte of a binary blob.
    static let format: UInt8 = 0x01

    static let null: UInt8 = 0x00
    static let falseTag: UInt8 = 0x01
    static let trueTag: UInt8 = 0x02
    static let int: UInt8 = 0x03
    static let double: UInt8 = 0x04
    static let string: UInt8 = 0x05
    static let date: UInt8 = 0x06
    static let array: UInt8 = 0x07
    static let object: UInt8 = 0x08

    /// Whether `bytes` are in the binary form (rather than JSON).
    @inline(__always)
    static func isBinary(_ bytes: [UInt8]) -> Bool { bytes.first == format }

    /// `bytes` as JSON: transcoded when binary, as they are when already JSON.
    /// - Throws: ``BinaryValueError`` when binary bytes are malformed.
    static func json(_ bytes: [UInt8]) throws(BinaryValueError) -> [UInt8] {
        guard isBinary(bytes) else { return bytes }
        return try BinaryValueReader.json(from: bytes)
    }
}
