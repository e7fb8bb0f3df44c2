import Foundation
import Tracking

/// Writing userData in one walk, into a buffer of fixed size: no size walk first. The bytes are
/// those of ``BinaryValueWriter/writeObject(_:at:)``.
extension BinaryValueWriter {
    /// The most bytes a header or a scalar value takes: a tag and a 10-byte varint.
    private static let largestScalar = 11

    /// Writes the blob of `values` (format byte first) from `cursor`, never at or past `end`;
    /// returns the end of what was written, or `nil` when it does not fit or something is
    /// nested deeper than ``Tracking/UserDataValue/maximumDepth`` (what was written is then garbage).
    static func writeObject(_ values: UserData, at cursor: UnsafeMutableRawPointer, end: UnsafeMutableRawPointer) -> UnsafeMutableRawPointer? {
        guard end - cursor >= 1 + largestScalar else { return nil }
        cursor.storeBytes(of: BinaryValue.format, as: UInt8.self)
        return writeObject(values, open: 0, at: cursor + 1, end: end)
    }

    private static func writeObject(_ values: UserData, open: Int, at cursor: UnsafeMutableRawPointer, end: UnsafeMutableRawPointer) -> UnsafeMutableRawPointer? {
        guard open < UserDataValue.maximumDepth, end - cursor >= largestScalar else { return nil }
        var cursor = header(object, count: values.count, at: cursor)
        for (key, value) in values {
            guard let afterKey = text(key, at: cursor, end: end),
                  let afterValue = write(value, open: open + 1, at: afterKey, end: end) else { return nil }
            cursor = afterValue
        }
        return cursor
    }

    private static func write(_ value: UserDataValue, open: Int, at cursor: UnsafeMutableRawPointer, end: UnsafeMutableRawPointer) -> UnsafeMutableRawPointer? {
        switch value {
        case .string(let text):
            guard end - cursor >= 1 else { return nil }
            cursor.storeBytes(of: BinaryValue.string, as: UInt8.self)
            return Self.text(text, at: cursor + 1, end: end)
        case .array(let values):
            guard open < UserDataValue.maximumDepth, end - cursor >= largestScalar else { return nil }
            var cursor = header(array, count: values.count, at: cursor)
            for element in values {
                guard let next = write(element, open: open + 1, at: cursor, end: end) else { return nil }
                cursor = next
            }
            return cursor
        case .object(let values):
            return writeObject(values, open: open, at: cursor, end: end)
        case .null, .bool, .int, .double, .date:
            guard end - cursor >= largestScalar else { return nil }
            return write(value, open: open, at: cursor)
        }
    }

    /// A key or string payload (varint byte count, then the UTF-8 bytes), or `nil` when it does not fit.
    @inline(__always)
    private static func text(_ value: String, at cursor: UnsafeMutableRawPointer, end: UnsafeMutableRawPointer) -> UnsafeMutableRawPointer? {
        var value = value
        return value.withUTF8 { utf8 in
            guard end - cursor >= largestScalar + utf8.count else { return nil }
            let start = varint(UInt64(utf8.count), at: cursor)
            if let bytes = utf8.baseAddress, utf8.count > 0 { start.copyMemory(from: bytes, byteCount: utf8.count) }
            return start + utf8.count
        }
    }
}
