import Foundation

/// The binary form of one ``EncodedEvent`` in a journal segment.
///
/// ```
/// frame:   u32 payload length | u32 checksum | payload | zero padding to 8 bytes
/// payload: 16-byte id | i64 timestamp (ms) | u32 × 6 lengths (category, name, action,
///          userData, context, flags) | the six byte strings
/// ```
/// Little-endian. The length is written last, so a record torn by process death has either a
/// zero length (never started) or a checksum that does not match; reading stops there.
enum JournalRecord {
    /// Frame header bytes (length + checksum).
    static let frameHeader = 8
    /// Fixed payload bytes before the strings.
    static let fixedPayload = 16 + 8 + 6 * 4

    /// The payload bytes of `event`.
    static func payloadSize(_ event: EncodedEvent) -> Int {
        fixedPayload + event.category.utf8.count + event.name.utf8.count + event.action.utf8.count
            + event.userDataJSON.count + event.contextJSON.count + event.flagsJSON.count
    }

    /// The bytes a record of `payload` bytes occupies, padding included.
    static func frameSize(payload: Int) -> Int { (frameHeader + payload + 7) & ~7 }

    /// Writes the record for `event` (whose payload is `payload` bytes) at `base`.
    ///
    /// Straight-line code with no capturing closures: this runs on the sender's thread, and a
    /// closure capturing mutable locals costs a dynamic exclusivity check per call.
    static func write(_ event: EncodedEvent, payload: Int, to base: UnsafeMutableRawPointer) {
        let body = base + frameHeader
        body.storeBytes(of: event.id.uuid, as: uuid_t.self)
        body.storeBytes(of: event.timestampMilliseconds.littleEndian, toByteOffset: 16, as: Int64.self)
        var cursor = body + fixedPayload
        var text = event.category
        cursor = copy(text: &text, into: cursor, length: body + 24)
        text = event.name
        cursor = copy(text: &text, into: cursor, length: body + 28)
        text = event.action
        cursor = copy(text: &text, into: cursor, length: body + 32)
        cursor = copy(bytes: event.userDataJSON, into: cursor, length: body + 36)
        cursor = copy(bytes: event.contextJSON, into: cursor, length: body + 40)
        _ = copy(bytes: event.flagsJSON, into: cursor, length: body + 44)
        let checksum = Self.checksum(UnsafeRawBufferPointer(start: body, count: payload))
        base.storeBytes(of: checksum.littleEndian, toByteOffset: 4, as: UInt32.self)
        base.storeBytes(of: UInt32(payload).littleEndian, as: UInt32.self)
    }

    /// Copies a string's UTF-8 bytes to `cursor`, writes their count at `length`, returns the end.
    @inline(__always)
    private static func copy(text: inout String, into cursor: UnsafeMutableRawPointer, length: UnsafeMutableRawPointer) -> UnsafeMutableRawPointer {
        text.withUTF8 { copy(UnsafeRawBufferPointer($0), into: cursor, length: length) }
    }

    /// Copies bytes to `cursor`, writes their count at `length`, returns the end.
    @inline(__always)
    private static func copy(bytes: [UInt8], into cursor: UnsafeMutableRawPointer, length: UnsafeMutableRawPointer) -> UnsafeMutableRawPointer {
        bytes.withUnsafeBytes { copy($0, into: cursor, length: length) }
    }

    @inline(__always)
    private static func copy(_ source: UnsafeRawBufferPointer, into cursor: UnsafeMutableRawPointer, length: UnsafeMutableRawPointer) -> UnsafeMutableRawPointer {
        length.storeBytes(of: UInt32(source.count).littleEndian, as: UInt32.self)
        if let start = source.baseAddress, source.count > 0 { cursor.copyMemory(from: start, byteCount: source.count) }
        return cursor + source.count
    }

    /// The frame size of a valid record at `base` (length and checksum checked, nothing decoded),
    /// or `nil` at a zero, torn or damaged record.
    static func validFrame(at base: UnsafeRawPointer, available: Int) -> Int? {
        guard available >= frameHeader + fixedPayload else { return nil }
        let payload = Int(UInt32(littleEndian: base.loadUnaligned(as: UInt32.self)))
        guard payload >= fixedPayload, frameHeader + payload <= available else { return nil }
        let stored = UInt32(littleEndian: base.loadUnaligned(fromByteOffset: 4, as: UInt32.self))
        guard stored == checksum(UnsafeRawBufferPointer(start: base + frameHeader, count: payload)) else { return nil }
        return frameSize(payload: payload)
    }

    /// Reads the record at `base`, with `available` bytes before the end of valid data.
    /// - Returns: the event and the frame size, or `nil` at a zero, torn or damaged record.
    static func read(at base: UnsafeRawPointer, available: Int) -> (event: EncodedEvent, frame: Int)? {
        guard available >= frameHeader + fixedPayload else { return nil }
        let payload = Int(UInt32(littleEndian: base.loadUnaligned(as: UInt32.self)))
        guard payload >= fixedPayload, frameHeader + payload <= available else { return nil }
        let body = base + frameHeader
        let stored = UInt32(littleEndian: base.loadUnaligned(fromByteOffset: 4, as: UInt32.self))
        guard stored == checksum(UnsafeRawBufferPointer(start: body, count: payload)) else { return nil }
        func length(_ slot: Int) -> Int {
            Int(UInt32(littleEndian: body.loadUnaligned(fromByteOffset: 24 + 4 * slot, as: UInt32.self)))
        }
        let lengths = (length(0), length(1), length(2), length(3), length(4), length(5))
        let total = fixedPayload + lengths.0 + lengths.1 + lengths.2 + lengths.3 + lengths.4 + lengths.5
        guard total == payload else { return nil }
        var uuid: uuid_t = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        withUnsafeMutableBytes(of: &uuid) { $0.copyMemory(from: UnsafeRawBufferPointer(start: body, count: 16)) }
        let timestamp = Int64(littleEndian: body.loadUnaligned(fromByteOffset: 16, as: Int64.self))
        var cursor = body + fixedPayload
        func take(_ count: Int) -> UnsafeRawBufferPointer {
            defer { cursor += count }
            return UnsafeRawBufferPointer(start: cursor, count: count)
        }
        let event = EncodedEvent(
            id: UUID(uuid: uuid),
            timestampMilliseconds: timestamp,
            category: String(decoding: take(lengths.0), as: UTF8.self),
            name: String(decoding: take(lengths.1), as: UTF8.self),
            action: String(decoding: take(lengths.2), as: UTF8.self),
            userDataJSON: Array(take(lengths.3)),
            contextJSON: Array(take(lengths.4)),
            flagsJSON: Array(take(lengths.5))
        )
        return (event, frameSize(payload: payload))
    }

    /// A fast 32-bit checksum over 8-byte words (multiply–xorshift), seeded with the length.
    static func checksum(_ bytes: UnsafeRawBufferPointer) -> UInt32 {
        guard let base = bytes.baseAddress else { return 0x5EED }
        let count = bytes.count
        var hash: UInt64 = 0x9E37_79B9_7F4A_7C15 ^ UInt64(count)
        var offset = 0
        while offset + 8 <= count {
            hash = (hash ^ base.loadUnaligned(fromByteOffset: offset, as: UInt64.self)) &* 0xFF51_AFD7_ED55_8CCD
            hash ^= hash >> 29
            offset += 8
        }
        var tail: UInt64 = 0
        var shift: UInt64 = 0
        while offset < count {
            tail |= UInt64(base.load(fromByteOffset: offset, as: UInt8.self)) << shift
            shift += 8
            offset += 1
        }
        hash = (hash ^ tail) &* 0xC4CE_B9FE_1A85_EC53
        hash ^= hash >> 32
        return UInt32(truncatingIfNeeded: hash)
    }
}
