import Foundation
import Tracking

/// An event on its way into the journal whose userData and own context are written in their
/// binary form, in one walk each, into a scratch buffer of the sender's (outside the journal's
/// lock), then copied into the record under it, with no intermediate arrays: the sender's
/// common case. The record is the one ``EncodedEvent/init(journaling:)`` would make.
///
/// `nil` from ``init(_:scratch:)`` when something is nested too deep (that event takes the
/// ``EncodedEvent`` path, which cuts and flags it) or does not fit in the scratch buffer.
struct DirectJournalEvent: JournalEventSource {
    /// The bytes of the scratch buffer a sender lends: more than most events' userData and context.
    static let scratchSize = 1024

    let id: UUID
    private let timestamp: Date
    let category: String
    let name: String
    let action: String
    /// The userData's bytes, in the scratch buffer.
    private let userData: UnsafeRawBufferPointer
    /// The own context's bytes, in the scratch buffer.
    private let context: UnsafeRawBufferPointer
    private let flags: [UInt8]
    /// The shared context the record refers to (`nil` when the event has none, or an empty one).
    let sharedContext: EncodedSharedContext?

    /// Encodes `event`'s userData and own context into `scratch`, which must outlive this value;
    /// `nil` when one must be cut or they do not fit.
    ///
    /// `event` is borrowed, and only its header fields are kept: its data is in the scratch buffer.
    init?(_ event: borrowing TrackedEvent, scratch: UnsafeMutableRawBufferPointer) {
        self.init(event, sharedContext: event.sharedContext.map(EncodedSharedContext.cached), scratch: scratch)
    }

    /// Encodes `event` like ``init(_:scratch:)``, whose shared context's encoded form the caller
    /// found: `encoded`, which must be that of `event.sharedContext` (`nil` when it has none).
    init?(_ event: borrowing TrackedEvent, sharedContext encoded: EncodedSharedContext?, scratch: UnsafeMutableRawBufferPointer) {
        guard let start = scratch.baseAddress else { return nil }
        let end = start + scratch.count
        guard let userDataEnd = Self.write(event.userData, at: start, end: end),
              let contextEnd = Self.write(event.eventContext, at: userDataEnd, end: end) else { return nil }
        let shared = EncodedSharedContext.reference(encoded)
        guard !shared.truncated else { return nil }
        userData = UnsafeRawBufferPointer(start: start, count: userDataEnd - start)
        context = UnsafeRawBufferPointer(start: userDataEnd, count: contextEnd - userDataEnd)
        self.sharedContext = shared.context
        flags = BinaryValueWriter.flags(event.flags)
        id = event.id
        timestamp = event.timestamp
        category = event.category
        name = event.name
        action = event.action
    }

    var timestampMilliseconds: Int64 { JSONText.milliseconds(timestamp) }
    var partsSize: Int { userData.count + context.count + flags.count }

    func writeParts(at cursor: UnsafeMutableRawPointer, lengths: UnsafeMutableRawPointer) -> UnsafeMutableRawPointer {
        var cursor = JournalRecord.copy(userData, into: cursor, length: lengths)
        cursor = JournalRecord.copy(context, into: cursor, length: lengths + 4)
        return Self.copy(flags, into: cursor, length: lengths + 8)
    }

    /// Writes `values` as ``EncodedEvent/init(journaling:)`` encodes them (`{}` when empty) from
    /// `cursor`, before `end`; returns the end, or `nil` when they must be cut or do not fit.
    private static func write(_ values: UserData, at cursor: UnsafeMutableRawPointer, end: UnsafeMutableRawPointer) -> UnsafeMutableRawPointer? {
        guard values.isEmpty else { return BinaryValueWriter.writeObject(values, at: cursor, end: end) }
        let empty = EncodedEvent.emptyObject
        guard end - cursor >= empty.count else { return nil }
        return empty.withUnsafeBytes { bytes in
            cursor.copyMemory(from: bytes.baseAddress!, byteCount: bytes.count)
            return cursor + bytes.count
        }
    }
}
