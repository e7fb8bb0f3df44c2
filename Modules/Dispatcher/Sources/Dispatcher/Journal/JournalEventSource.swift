import Foundation

/// What an event record of the journal is written from: an ``EncodedEvent``, whose userData,
/// context and flags are already encoded, or a ``DirectJournalEvent``, whose six byte strings
/// are written into a scratch buffer from the event's values, then copied into the record.
protocol JournalEventSource {
    /// The event id.
    var id: UUID { get }
    /// When the event was sent, in milliseconds since 1970.
    var timestampMilliseconds: Int64 { get }
    /// The shared context the record refers to, if any.
    var sharedContext: EncodedSharedContext? { get }
    /// The bytes of the six byte strings together: category, name, action (UTF-8), then the
    /// userData, context and flags parts.
    var bytesSize: Int { get }
    /// Writes the six byte strings from `cursor`, in that order, each one's length (a
    /// little-endian `UInt32`) at `lengths`, `lengths + 4`, … `lengths + 20`; returns the end.
    func writeBytes(at cursor: UnsafeMutableRawPointer, lengths: UnsafeMutableRawPointer) -> UnsafeMutableRawPointer
}

extension EncodedEvent: JournalEventSource {
    var bytesSize: Int {
        category.utf8.count + name.utf8.count + action.utf8.count + userDataBlob.count + contextBlob.count + flagsBlob.count
    }

    func writeBytes(at cursor: UnsafeMutableRawPointer, lengths: UnsafeMutableRawPointer) -> UnsafeMutableRawPointer {
        var text = category
        var cursor = Self.copy(text: &text, into: cursor, length: lengths)
        text = name
        cursor = Self.copy(text: &text, into: cursor, length: lengths + 4)
        text = action
        cursor = Self.copy(text: &text, into: cursor, length: lengths + 8)
        cursor = Self.copy(userDataBlob, into: cursor, length: lengths + 12)
        cursor = Self.copy(contextBlob, into: cursor, length: lengths + 16)
        return Self.copy(flagsBlob, into: cursor, length: lengths + 20)
    }

    /// Writes `bytes` at `cursor` and their count at `length`; returns the end.
    @inline(__always)
    private static func copy(_ bytes: [UInt8], into cursor: UnsafeMutableRawPointer, length: UnsafeMutableRawPointer) -> UnsafeMutableRawPointer {
        bytes.withUnsafeBytes { JournalRecord.copy($0, into: cursor, length: length) }
    }

    /// Writes a string's UTF-8 bytes at `cursor` and their count at `length`; returns the end.
    @inline(__always)
    private static func copy(text: inout String, into cursor: UnsafeMutableRawPointer, length: UnsafeMutableRawPointer) -> UnsafeMutableRawPointer {
        text.withUTF8 { JournalRecord.copy(UnsafeRawBufferPointer($0), into: cursor, length: length) }
    }
}
