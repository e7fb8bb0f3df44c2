import Foundation
import Tracking

/// An event on its way into the journal whose six byte strings (category, name, action, then
/// the userData, own context and flags in their binary form) are written, in one walk each, into
/// a scratch buffer of the sender's (outside the journal's lock), then copied into the record
/// under it in one copy, with no intermediate arrays and no string or array of the event's
/// retained: the sender's common case. The record is the one ``EncodedEvent/init(journaling:)``
/// would make.
///
/// `nil` from ``init(_:scratch:)`` when something is nested too deep (that event takes the
/// ``EncodedEvent`` path, which cuts and flags it) or does not fit in the scratch buffer.
struct DirectJournalEvent: JournalEventSource {
    /// The bytes of the scratch buffer a sender lends: more than most events' parts.
    static let scratchSize = 1024

    let id: UUID
    private let timestamp: Date
    /// The six byte strings, one after the other, in the scratch buffer: only what this event
    /// wrote there (a buffer lent again holds the next event's, never a part of this one's).
    private let bytes: UnsafeRawBufferPointer
    /// The byte count of each of the six, in order.
    private let lengths: SIMD8<UInt32>
    /// The shared context the record refers to (`nil` when the event has none, or an empty one).
    let sharedContext: EncodedSharedContext?

    /// Encodes `event`'s byte strings into `scratch`, which must outlive this value; `nil` when
    /// a part must be cut or they do not fit.
    ///
    /// `event` is borrowed, and only its id, timestamp and shared context are kept.
    init?(_ event: borrowing TrackedEvent, scratch: UnsafeMutableRawBufferPointer) {
        self.init(event, sharedContext: event.sharedContext.map(EncodedSharedContext.cached), scratch: scratch)
    }

    /// Encodes `event` like ``init(_:scratch:)``, whose shared context's encoded form the caller
    /// found: `encoded`, which must be that of `event.sharedContext` (`nil` when it has none).
    init?(_ event: borrowing TrackedEvent, sharedContext encoded: EncodedSharedContext?, scratch: UnsafeMutableRawBufferPointer) {
        guard let start = scratch.baseAddress else { return nil }
        let end = start + scratch.count
        guard let categoryEnd = Self.write(text: event.category, at: start, end: end),
              let nameEnd = Self.write(text: event.name, at: categoryEnd, end: end),
              let actionEnd = Self.write(text: event.action, at: nameEnd, end: end),
              let userDataEnd = Self.write(event.userData, at: actionEnd, end: end),
              let contextEnd = Self.write(event.eventContext, at: userDataEnd, end: end),
              let flagsEnd = Self.write(event.flags, at: contextEnd, end: end) else { return nil }
        let shared = EncodedSharedContext.reference(encoded)
        guard !shared.truncated else { return nil }
        bytes = UnsafeRawBufferPointer(start: start, count: flagsEnd - start)
        lengths = SIMD8(UInt32(categoryEnd - start), UInt32(nameEnd - categoryEnd), UInt32(actionEnd - nameEnd),
                        UInt32(userDataEnd - actionEnd), UInt32(contextEnd - userDataEnd), UInt32(flagsEnd - contextEnd), 0, 0)
        self.sharedContext = shared.context
        id = event.id
        timestamp = event.timestamp
    }

    var timestampMilliseconds: Int64 { JSONText.milliseconds(timestamp) }
    var bytesSize: Int { bytes.count }

    func writeBytes(at cursor: UnsafeMutableRawPointer, lengths slots: UnsafeMutableRawPointer) -> UnsafeMutableRawPointer {
        for slot in 0..<6 { slots.storeBytes(of: lengths[slot].littleEndian, toByteOffset: 4 * slot, as: UInt32.self) }
        if let source = bytes.baseAddress, !bytes.isEmpty { cursor.copyMemory(from: source, byteCount: bytes.count) }
        return cursor + bytes.count
    }

    /// Writes `values` as ``EncodedEvent/init(journaling:)`` encodes them (`{}` when empty) from
    /// `cursor`, before `end`; returns the end, or `nil` when they must be cut or do not fit.
    private static func write(_ values: UserData, at cursor: UnsafeMutableRawPointer, end: UnsafeMutableRawPointer) -> UnsafeMutableRawPointer? {
        guard values.isEmpty else { return BinaryValueWriter.writeObject(values, at: cursor, end: end) }
        return write(UInt8(ascii: "{"), UInt8(ascii: "}"), at: cursor, end: end)
    }

    /// Writes `flags` as ``EncodedEvent/init(journaling:)`` encodes them (`[]` when none) from
    /// `cursor`, before `end`; returns the end, or `nil` when they do not fit.
    private static func write(_ flags: [EventFlag], at cursor: UnsafeMutableRawPointer, end: UnsafeMutableRawPointer) -> UnsafeMutableRawPointer? {
        guard !flags.isEmpty else { return write(UInt8(ascii: "["), UInt8(ascii: "]"), at: cursor, end: end) }
        return BinaryValueWriter.flags(flags).withUnsafeBytes { blob in
            guard end - cursor >= blob.count else { return nil }
            if let source = blob.baseAddress, blob.count > 0 { cursor.copyMemory(from: source, byteCount: blob.count) }
            return cursor + blob.count
        }
    }

    /// Writes the two bytes of an empty part (`{}` or `[]`); `nil` when they do not fit.
    @inline(__always)
    private static func write(_ open: UInt8, _ close: UInt8, at cursor: UnsafeMutableRawPointer, end: UnsafeMutableRawPointer) -> UnsafeMutableRawPointer? {
        guard end - cursor >= 2 else { return nil }
        cursor.storeBytes(of: open, as: UInt8.self)
        (cursor + 1).storeBytes(of: close, as: UInt8.self)
        return cursor + 2
    }

    /// Writes `text`'s UTF-8 bytes from `cursor`, before `end`; `nil` when they do not fit.
    @inline(__always)
    private static func write(text: String, at cursor: UnsafeMutableRawPointer, end: UnsafeMutableRawPointer) -> UnsafeMutableRawPointer? {
        var text = text
        return text.withUTF8 { utf8 in
            guard end - cursor >= utf8.count else { return nil }
            if let source = utf8.baseAddress, utf8.count > 0 { cursor.copyMemory(from: source, byteCount: utf8.count) }
            return cursor + utf8.count
        }
    }
}
