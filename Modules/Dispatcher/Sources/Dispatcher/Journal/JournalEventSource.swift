import Foundation

/// What an event record of the journal is written from: an ``EncodedEvent``, whose userData,
/// context and flags are already encoded, or a ``DirectJournalEvent``, whose userData and
/// context are written straight into the record from the event's values.
protocol JournalEventSource {
    /// The event id.
    var id: UUID { get }
    /// When the event was sent, in milliseconds since 1970.
    var timestampMilliseconds: Int64 { get }
    /// The category.
    var category: String { get }
    /// The name.
    var name: String { get }
    /// The action.
    var action: String { get }
    /// The shared context the record refers to, if any.
    var sharedContext: EncodedSharedContext? { get }
    /// The bytes of the userData, context and flags parts together.
    var partsSize: Int { get }
    /// Writes the userData, context and flags parts from `cursor`, each part's length (a
    /// little-endian `UInt32`) at `lengths`, `lengths + 4` and `lengths + 8`; returns the end.
    func writeParts(at cursor: UnsafeMutableRawPointer, lengths: UnsafeMutableRawPointer) -> UnsafeMutableRawPointer
}

extension JournalEventSource {
    /// Writes `bytes` at `cursor` and their count at `length`; returns the end.
    @inline(__always)
    static func copy(_ bytes: [UInt8], into cursor: UnsafeMutableRawPointer, length: UnsafeMutableRawPointer) -> UnsafeMutableRawPointer {
        bytes.withUnsafeBytes { JournalRecord.copy($0, into: cursor, length: length) }
    }
}

extension EncodedEvent: JournalEventSource {
    var partsSize: Int { userDataBlob.count + contextBlob.count + flagsBlob.count }

    func writeParts(at cursor: UnsafeMutableRawPointer, lengths: UnsafeMutableRawPointer) -> UnsafeMutableRawPointer {
        var cursor = Self.copy(userDataBlob, into: cursor, length: lengths)
        cursor = Self.copy(contextBlob, into: cursor, length: lengths + 4)
        return Self.copy(flagsBlob, into: cursor, length: lengths + 8)
    }
}
