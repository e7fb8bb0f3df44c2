import Foundation
import Tracking
import TrackingJSON

/// Writes userData, context and flags in the binary form of ``BinaryValue``: the size is
/// computed first, then the bytes are written through a pointer into one exactly sized array.
///
/// Arrays and objects nested deeper than ``Tracking/UserDataValue/maximumDepth`` (the outer
/// object counting as level 1) are written as ``Tracking/UserDataValue/truncationPlaceholder``,
/// exactly where the JSON writer cuts, and reported as truncated.
enum BinaryValueWriter {
    /// `values` as a binary blob, and whether something nested too deep was cut.
    static func object(_ values: UserData) -> (bytes: [UInt8], truncated: Bool) {
        var truncated = false
        let size = 1 + objectSize(values, open: 0, truncated: &truncated)
        let bytes = blob(size: size) { cursor in writeObject(values, open: 0, at: cursor) }
        return (bytes, truncated)
    }

    /// Flags as a binary blob: an array of `{"code":…,"detail":…}` objects, `detail` only when set.
    static func flags(_ flags: [EventFlag]) -> [UInt8] {
        var size = 1 + 5
        for flag in flags {
            size += 5 + 4 + 4 + 5 + flag.code.utf8.count
            if let detail = flag.detail { size += 4 + 6 + 5 + detail.utf8.count }
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

    private static let array = BinaryValue.array
    private static let object = BinaryValue.object

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
        var total = 5
        for (key, value) in values { total += 4 + key.utf8.count + size(value, open: open + 1, truncated: &truncated) }
        return total
    }

    /// The bytes `value` takes, with `open` arrays and objects around it.
    private static func size(_ value: UserDataValue, open: Int, truncated: inout Bool) -> Int {
        switch value {
        case .null, .bool: return 1
        case .int, .double, .date: return 9
        case .string(let text): return 5 + text.utf8.count
        case .array(let values):
            guard open < UserDataValue.maximumDepth else { return placeholderSize(&truncated) }
            var total = 5
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
    private static func write(_ value: UserDataValue, open: Int, at cursor: UnsafeMutableRawPointer) -> UnsafeMutableRawPointer {
        switch value {
        case .null: return tag(BinaryValue.null, at: cursor)
        case .bool(let flag): return tag(flag ? BinaryValue.trueTag : BinaryValue.falseTag, at: cursor)
        case .int(let number): return fixed(BinaryValue.int, UInt64(bitPattern: Int64(number)), at: cursor)
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
    private static func header(_ tag: UInt8, count: Int, at cursor: UnsafeMutableRawPointer) -> UnsafeMutableRawPointer {
        cursor.storeBytes(of: tag, as: UInt8.self)
        (cursor + 1).storeBytes(of: UInt32(truncatingIfNeeded: count).littleEndian, as: UInt32.self)
        return cursor + 5
    }

    /// A string value: tag, then the length and bytes of ``text(_:at:)``.
    @inline(__always)
    private static func string(_ value: String, at cursor: UnsafeMutableRawPointer) -> UnsafeMutableRawPointer {
        cursor.storeBytes(of: BinaryValue.string, as: UInt8.self)
        return text(value, at: cursor + 1)
    }

    /// A key or string payload: u32 byte count, then the UTF-8 bytes (no copy of a native string).
    @inline(__always)
    private static func text(_ value: String, at cursor: UnsafeMutableRawPointer) -> UnsafeMutableRawPointer {
        var value = value
        return value.withUTF8 { utf8 in
            cursor.storeBytes(of: UInt32(truncatingIfNeeded: utf8.count).littleEndian, as: UInt32.self)
            if let start = utf8.baseAddress, utf8.count > 0 { (cursor + 4).copyMemory(from: start, byteCount: utf8.count) }
            return cursor + 4 + utf8.count
        }
    }
}
