import Foundation
import Tracking

/// An event on its way into the journal whose userData and own context are written in their
/// binary form straight into the record, under the journal's lock, with no intermediate
/// arrays: the sender's common case. The record is the one ``EncodedEvent/init(journaling:)``
/// would make.
///
/// `nil` from ``init(_:)`` when something is nested too deep: that event takes the
/// ``EncodedEvent`` path, which cuts and flags it.
struct DirectJournalEvent: JournalEventSource {
    private let event: TrackedEvent
    private let userDataSize: Int
    private let contextSize: Int
    private let flags: [UInt8]
    /// The shared context the record refers to (`nil` when the event has none, or an empty one).
    let sharedContext: EncodedSharedContext?

    /// Sizes `event`'s parts; `nil` when one must be cut.
    init?(_ event: TrackedEvent) {
        guard let userDataSize = Self.size(of: event.userData), let contextSize = Self.size(of: event.eventContext) else { return nil }
        let shared = EncodedSharedContext.reference(of: event)
        guard !shared.truncated else { return nil }
        self.userDataSize = userDataSize
        self.contextSize = contextSize
        self.sharedContext = shared.context
        flags = BinaryValueWriter.flags(event.flags)
        // The last use of `event`: it is moved in, not copied and then released.
        self.event = event
    }

    var id: UUID { event.id }
    var timestampMilliseconds: Int64 { JSONText.milliseconds(event.timestamp) }
    var category: String { event.category }
    var name: String { event.name }
    var action: String { event.action }
    var partsSize: Int { userDataSize + contextSize + flags.count }

    func writeParts(at cursor: UnsafeMutableRawPointer, lengths: UnsafeMutableRawPointer) -> UnsafeMutableRawPointer {
        var cursor = Self.write(event.userData, size: userDataSize, at: cursor, length: lengths)
        cursor = Self.write(event.eventContext, size: contextSize, at: cursor, length: lengths + 4)
        return Self.copy(flags, into: cursor, length: lengths + 8)
    }

    /// The bytes `values` take in the record (`{}` when empty); `nil` when something must be cut.
    private static func size(of values: UserData) -> Int? {
        guard !values.isEmpty else { return EncodedEvent.emptyObject.count }
        let sized = BinaryValueWriter.objectBlobSize(values)
        return sized.truncated ? nil : sized.size
    }

    /// Writes `values` as ``EncodedEvent/init(journaling:)`` encodes them (`{}` when empty).
    @inline(__always)
    private static func write(_ values: UserData, size: Int, at cursor: UnsafeMutableRawPointer, length: UnsafeMutableRawPointer) -> UnsafeMutableRawPointer {
        guard !values.isEmpty else { return copy(EncodedEvent.emptyObject, into: cursor, length: length) }
        length.storeBytes(of: UInt32(size).littleEndian, as: UInt32.self)
        return BinaryValueWriter.writeObject(values, at: cursor)
    }
}
