import Foundation

/// The compact binary form the sender writes an event's userData, own context and flags in,
/// instead of JSON; the store keeps it, and every read path turns it into JSON
/// (``BinaryValueReader``).
///
/// ```
/// blob:   0x01 (format) | value
/// value:  tag u8 | payload
///   0x00 null | 0x01 false | 0x02 true
///   0x03 int: zigzag varint | 0x04 double: IEEE-754 bits u64 | 0x06 date: i64 milliseconds since 1970
///   0x05 string: varint byte count | UTF-8 bytes
///   0x07 array: varint count | values
///   0x08 object: varint count | (varint key byte count | key UTF-8 bytes | value) × count
/// ```
/// Fixed-width numbers little-endian; varints LEB128 (7 bits a byte, low first). A JSON blob (of rows written before, or the empty `{}` and `[]` constants)
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

    /// The bytes `value` takes as a varint.
    @inline(__always)
    static func varintSize(_ value: UInt64) -> Int { value == 0 ? 1 : (64 - value.leadingZeroBitCount + 6) / 7 }

    /// `value` zigzag-encoded, so small negative numbers take few varint bytes too.
    @inline(__always)
    static func zigzag(_ value: Int64) -> UInt64 { UInt64(bitPattern: (value << 1) ^ (value >> 63)) }

    /// The integer a zigzag-encoded value stands for.
    @inline(__always)
    static func unzigzag(_ value: UInt64) -> Int64 { Int64(bitPattern: value >> 1) ^ -Int64(bitPattern: value & 1) }

    /// Whether `bytes` are in the binary form (rather than JSON).
    @inline(__always)
    static func isBinary(_ bytes: [UInt8]) -> Bool { bytes.first == format }

    /// Whether `bytes` are in the binary form (rather than JSON).
    static func isBinary(_ bytes: UnsafeRawBufferPointer) -> Bool { bytes.first == format }

    /// `bytes` as JSON: transcoded when binary, as they are when already JSON.
    /// - Throws: ``BinaryValueError`` when binary bytes are malformed.
    static func json(_ bytes: [UInt8]) throws(BinaryValueError) -> [UInt8] {
        guard isBinary(bytes) else { return bytes }
        return try BinaryValueReader.json(from: bytes)
    }
}
