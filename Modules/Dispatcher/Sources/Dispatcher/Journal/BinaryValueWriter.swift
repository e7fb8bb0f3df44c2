import Foundation
import Tracking

/// Writes userData, context and flags in the binary form of ``BinaryValue``: the size is
/// computed first, then the bytes are written through a pointer into one exactly sized array.
///
/// Arrays and objects nested deeper than ``Tracking/UserDataValue/maximumDepth`` (the outer
/// object counting as level 1) are written as ``Tracking/UserDataValue/truncationPlaceholder``,
/// exactly where the JSON writer cuts, and reported as truncated.
enum BinaryValueWriter {
    /// `values` as a binary blob, and whether something nested too deep was cut.
    static func object(_ values: UserData) -> (bytes: [UInt8], truncated: Bool) {
        let sized = objectBlobSize(values)
        return (blob(size: sized.size) { cursor in writeObject(values, open: 0, at: cursor) }, sized.truncated)
    }

    /// The bytes ``object(_:)`` would make of `values` (format byte included), and whether
    /// something nested too deep would be cut: for writing in place with ``writeObject(_:at:)``.
    static func objectBlobSize(_ values: UserData) -> (size: Int, truncated: Bool) {
        var truncated = false
        let size = 1 + objectSize(values, open: 0, truncated: &truncated)
        return (size, truncated)
    }

    /// Writes the blob ``object(_:)`` makes of `values` at `cursor` (``objectBlobSize(_:)`` bytes);
    /// returns the end.
    static func writeObject(_ values: UserData, at cursor: UnsafeMutableRawPointer) -> UnsafeMutableRawPointer {
        cursor.storeBytes(of: BinaryValue.format, as: UInt8.self)
        return writeObject(values, open: 0, at: cursor + 1)
    }

    /// Flags as a binary blob: an array of `{"code":…,"detail":…}` objects, `detail` only when
    /// set; no flags are the shared `[]`, as in JSON.
    static func flags(_ flags: [EventFlag]) -> [UInt8] {
        guard !flags.isEmpty else { return EncodedEvent.emptyArray }
        var size = 1 + 1 + BinaryValue.varintSize(UInt64(flags.count))
        for flag in flags {
            size += 2 + textSize("code") + 1 + textSize(flag.code)
            if let detail = flag.detail { size += textSize("detail") + 1 + textSize(detail) }
        }
        return blob(size: size) { cursor in
            var cursor = header(array, count: flags.count, at: cursor)
            for flag in flags {
                cursor = header(object, count: flag.detail == nil ? 1 : 2, at: cursor)
                cursor = text("code", at: cursor)
                cursor = string(flag.code, at: cursor)
                if let detail = flag.detail {
                    cursor = text("detail", at: cursor)
                    cursor = string(detail, at: cursor)
                }
            }
            return cursor
        }
    }

    static let array = BinaryValue.array
    static let object = BinaryValue.object

    /// An array of `size` bytes: the format byte, then what `write` writes from the cursor it gets.
    private static func blob(size: Int, _ write: (UnsafeMutableRawPointer) -> UnsafeMutableRawPointer) -> [UInt8] {
        [UInt8](unsafeUninitializedCapacity: size) { buffer, count in
            guard let start = buffer.baseAddress else { return }
            let base = UnsafeMutableRawPointer(start)
            base.storeBytes(of: BinaryValue.format, as: UInt8.self)
            count = write(base + 1) - base
        }
    }

    // MARK: Sizes

    /// The bytes `values` take as an object value, with `open` arrays and objects around it.
    private static func objectSize(_ values: UserData, open: Int, truncated: inout Bool) -> Int {
        guard open < UserDataValue.maximumDepth else { return placeholderSize(&truncated) }
        var total = 1 + BinaryValue.varintSize(UInt64(values.count))
        for (key, value) in values { total += textSize(key) + size(value, open: open + 1, truncated: &truncated) }
        return total
    }

    /// The bytes `value` takes, with `open` arrays and objects around it.
    private static func size(_ value: UserDataValue, open: Int, truncated: inout Bool) -> Int {
        switch value {
        case .null, .bool: return 1
        case .int(let number): return 1 + BinaryValue.varintSize(BinaryValue.zigzag(Int64(number)))
        case .double, .date: return 9
        case .string(let text): return 1 + textSize(text)
        case .array(let values):
            guard open < UserDataValue.maximumDepth else { return placeholderSize(&truncated) }
            var total = 1 + BinaryValue.varintSize(UInt64(values.count))
            for element in values { total += size(element, open: open + 1, truncated: &truncated) }
            return total
        case .object(let values): return objectSize(values, open: open, truncated: &truncated)
        }
    }

    private static func placeholderSize(_ truncated: inout Bool) -> Int {
        truncated = true
        var ignored = false
        return size(UserDataValue.truncationPlaceholder, open: 0, truncated: &ignored)
    }

    // MARK: Writing

    /// Writes `values` as an object value at `cursor`; returns the end.
    private static func writeObject(_ values: UserData, open: Int, at cursor: UnsafeMutableRawPointer) -> UnsafeMutableRawPointer {
        guard open < UserDataValue.maximumDepth else { return write(UserDataValue.truncationPlaceholder, open: 0, at: cursor) }
        var cursor = header(object, count: values.count, at: cursor)
        for (key, value) in values {
            cursor = text(key, at: cursor)
            cursor = write(value, open: open + 1, at: cursor)
        }
        return cursor
    }

    /// Writes `value` at `cursor`, with `open` arrays and objects around it; returns the end.
    static func write(_ value: UserDataValue, open: Int, at cursor: UnsafeMutableRawPointer) -> UnsafeMutableRawPointer {
        switch value {
        case .null: return tag(BinaryValue.null, at: cursor)
        case .bool(let flag): return tag(flag ? BinaryValue.trueTag : BinaryValue.falseTag, at: cursor)
        case .int(let number):
            cursor.storeBytes(of: BinaryValue.int, as: UInt8.self)
            return varint(BinaryValue.zigzag(Int64(number)), at: cursor + 1)
        case .double(let number): return fixed(BinaryValue.double, number.bitPattern, at: cursor)
        case .date(let date): return fixed(BinaryValue.date, UInt64(bitPattern: JSONText.milliseconds(date)), at: cursor)
        case .string(let text): return string(text, at: cursor)
        case .array(let values):
            guard open < UserDataValue.maximumDepth else { return write(UserDataValue.truncationPlaceholder, open: 0, at: cursor) }
            var cursor = header(array, count: values.count, at: cursor)
            for element in values { cursor = write(element, open: open + 1, at: cursor) }
            return cursor
        case .object(let values): return writeObject(values, open: open, at: cursor)
        }
    }

    @inline(__always)
    private static func tag(_ tag: UInt8, at cursor: UnsafeMutableRawPointer) -> UnsafeMutableRawPointer {
        cursor.storeBytes(of: tag, as: UInt8.self)
        return cursor + 1
    }

    @inline(__always)
    private static func fixed(_ tag: UInt8, _ bits: UInt64, at cursor: UnsafeMutableRawPointer) -> UnsafeMutableRawPointer {
        cursor.storeBytes(of: tag, as: UInt8.self)
        (cursor + 1).storeBytes(of: bits.littleEndian, as: UInt64.self)
        return cursor + 9
    }

    @inline(__always)
    static func header(_ tag: UInt8, count: Int, at cursor: UnsafeMutableRawPointer) -> UnsafeMutableRawPointer {
        cursor.storeBytes(of: tag, as: UInt8.self)
        return varint(UInt64(count), at: cursor + 1)
    }

    /// Writes `value` as a LEB128 varint at `cursor`; returns the end.
    @inline(__always)
    static func varint(_ value: UInt64, at cursor: UnsafeMutableRawPointer) -> UnsafeMutableRawPointer {
        var value = value
        var cursor = cursor
        while value >= 0x80 {
            cursor.storeBytes(of: UInt8(truncatingIfNeeded: value) | 0x80, as: UInt8.self)
            value >>= 7
            cursor += 1
        }
        cursor.storeBytes(of: UInt8(truncatingIfNeeded: value), as: UInt8.self)
        return cursor + 1
    }

    /// The bytes a key or string payload takes: varint length, then the UTF-8 bytes.
    @inline(__always)
    private static func textSize(_ value: String) -> Int {
        let count = value.utf8.count
        return BinaryValue.varintSize(UInt64(count)) + count
    }

    /// A string value: tag, then the length and bytes of ``text(_:at:)``.
    @inline(__always)
    private static func string(_ value: String, at cursor: UnsafeMutableRawPointer) -> UnsafeMutableRawPointer {
        cursor.storeBytes(of: BinaryValue.string, as: UInt8.self)
        return text(value, at: cursor + 1)
    }

    /// A key or string payload: varint byte count, then the UTF-8 bytes (no copy of a native string).
    @inline(__always)
    private static func text(_ value: String, at cursor: UnsafeMutableRawPointer) -> UnsafeMutableRawPointer {
        var value = value
        return value.withUTF8 { utf8 in
            let start = varint(UInt64(utf8.count), at: cursor)
            if let bytes = utf8.baseAddress, utf8.count > 0 { start.copyMemory(from: bytes, byteCount: utf8.count) }
            return start + utf8.count
        }
    }
}
