import Foundation
import Tracking

/// Turns a binary blob (``BinaryValue``) into the JSON the JSON writer writes for the same
/// values: numbers, dates and strings go through that writer, so formatting and escaping match,
/// and so does member order: the outer object's members in the order written (the sender's
/// dictionary order), nested objects' sorted by key.
struct BinaryValueReader {
    private let base: UnsafeRawPointer
    private let end: Int
    private var offset = 1
    private var writer: JSONWriter

    private init(base: UnsafeRawPointer, count: Int) {
        self.base = base
        end = count
        writer = JSONWriter(capacity: count + count / 2 + 16)
    }

    /// The JSON of a binary blob (starting with ``BinaryValue/format``).
    /// - Throws: ``BinaryValueError`` when the blob is cut short, has an unknown tag, nests
    ///   deeper than the writer ever writes, or has bytes left over.
    static func json(from blob: [UInt8]) throws(BinaryValueError) -> [UInt8] {
        let result: Result<[UInt8], BinaryValueError> = blob.withUnsafeBytes { buffer in
            guard let start = buffer.baseAddress, buffer.count > 1, buffer[0] == BinaryValue.format else {
                return .failure(BinaryValueError(offset: 0))
            }
            var reader = BinaryValueReader(base: start, count: buffer.count)
            do throws(BinaryValueError) {
                try reader.value(open: 0)
                guard reader.offset == reader.end else { throw BinaryValueError(offset: reader.offset) }
                return .success(reader.writer.bytes)
            } catch {
                return .failure(error)
            }
        }
        return try result.get()
    }

    /// Reads one value and writes it as JSON, with `open` arrays and objects around it.
    private mutating func value(open: Int) throws(BinaryValueError) {
        switch try byte() {
        case BinaryValue.null: writer.null()
        case BinaryValue.falseTag: writer.bool(false)
        case BinaryValue.trueTag: writer.bool(true)
        case BinaryValue.int: writer.int(BinaryValue.unzigzag(try varint()))
        case BinaryValue.double: writer.double(Double(bitPattern: try word()))
        case BinaryValue.date: writer.timestamp(milliseconds: Int64(bitPattern: try word()))
        case BinaryValue.string: writer.string(try text())
        case BinaryValue.array:
            let count = try container(open: open)
            writer.raw("[")
            for index in 0..<count {
                if index > 0 { writer.raw(",") }
                try value(open: open + 1)
            }
            writer.raw("]")
        case BinaryValue.object:
            let count = try container(open: open)
            writer.raw("{")
            if open == 0 || count < 2 {
                for index in 0..<count {
                    if index > 0 { writer.raw(",") }
                    writer.string(try text())
                    writer.raw(":")
                    try value(open: open + 1)
                }
            } else {
                try sortedMembers(count: count, open: open)
            }
            writer.raw("}")
        default:
            throw BinaryValueError(offset: offset - 1)
        }
    }

    /// Writes the `count` members of a nested object sorted by key, as the JSON writer does.
    private mutating func sortedMembers(count: Int, open: Int) throws(BinaryValueError) {
        var members: [(key: String, value: Int)] = []
        members.reserveCapacity(count)
        for _ in 0..<count {
            let key = try text()
            members.append((key, offset))
            try skip(open: open + 1)
        }
        let end = offset
        for (index, member) in members.sorted(by: { $0.key < $1.key }).enumerated() {
            if index > 0 { writer.raw(",") }
            writer.string(member.key)
            writer.raw(":")
            offset = member.value
            try value(open: open + 1)
        }
        offset = end
    }

    /// Moves past one value without writing it.
    private mutating func skip(open: Int) throws(BinaryValueError) {
        switch try byte() {
        case BinaryValue.null, BinaryValue.falseTag, BinaryValue.trueTag: return
        case BinaryValue.int: _ = try varint()
        case BinaryValue.double, BinaryValue.date: _ = try word()
        case BinaryValue.string: try advance(by: Int(try length()))
        case BinaryValue.array:
            for _ in 0..<(try container(open: open)) { try skip(open: open + 1) }
        case BinaryValue.object:
            for _ in 0..<(try container(open: open)) {
                try advance(by: Int(try length()))
                try skip(open: open + 1)
            }
        default:
            throw BinaryValueError(offset: offset - 1)
        }
    }

    private mutating func advance(by count: Int) throws(BinaryValueError) {
        guard end - offset >= count else { throw BinaryValueError(offset: offset) }
        offset += count
    }

    /// The element count of an array or object, checked against the nesting limit and the bytes
    /// left (every element takes at least one byte).
    private mutating func container(open: Int) throws(BinaryValueError) -> Int {
        guard open < UserDataValue.maximumDepth else { throw BinaryValueError(offset: offset - 1) }
        let count = Int(try length())
        guard count <= end - offset else { throw BinaryValueError(offset: offset) }
        return count
    }

    private mutating func byte() throws(BinaryValueError) -> UInt8 {
        guard offset < end else { throw BinaryValueError(offset: offset) }
        defer { offset += 1 }
        return base.load(fromByteOffset: offset, as: UInt8.self)
    }

    /// A count or byte length: a varint that fits in 32 bits.
    private mutating func length() throws(BinaryValueError) -> UInt32 {
        let start = offset
        let value = try varint()
        guard value <= UInt64(UInt32.max) else { throw BinaryValueError(offset: start) }
        return UInt32(value)
    }

    /// A LEB128 varint of at most 10 bytes.
    private mutating func varint() throws(BinaryValueError) -> UInt64 {
        var value: UInt64 = 0
        var shift: UInt64 = 0
        while true {
            let byte = try byte()
            guard shift < 64, shift < 63 || byte <= 1 else { throw BinaryValueError(offset: offset - 1) }
            value |= UInt64(byte & 0x7F) << shift
            if byte < 0x80 { return value }
            shift += 7
        }
    }

    private mutating func word() throws(BinaryValueError) -> UInt64 {
        guard end - offset >= 8 else { throw BinaryValueError(offset: offset) }
        defer { offset += 8 }
        return UInt64(littleEndian: base.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
    }

    /// A length-prefixed UTF-8 string.
    private mutating func text() throws(BinaryValueError) -> String {
        let count = Int(try length())
        guard end - offset >= count else { throw BinaryValueError(offset: offset) }
        defer { offset += count }
        return String(decoding: UnsafeRawBufferPointer(start: base + offset, count: count), as: UTF8.self)
    }
}
