import Foundation

/// An event's fields borrowed from memory someone else owns (a journal segment's mapping, or
/// an ``EncodedEvent``'s storage): what the store binds into a row, with no copy and no
/// allocation per event.
///
/// Valid only while the owner keeps that memory alive and unchanged: a journal batch until its
/// group is committed (see ``EventJournal/readBorrowed(from:maxRecords:)``), an encoded event for
/// the duration of ``EncodedEvent/withBorrowed(_:)``.
struct BorrowedEvent {
    /// The event id's bytes.
    var uuid: uuid_t
    /// When the event was sent, in milliseconds since 1970.
    var timestampMilliseconds: Int64
    /// The category's UTF-8 bytes.
    var category: UnsafeRawBufferPointer
    /// The name's UTF-8 bytes.
    var name: UnsafeRawBufferPointer
    /// The action's UTF-8 bytes.
    var action: UnsafeRawBufferPointer
    /// userData, encoded (binary or JSON, see ``EncodedEvent/userDataBlob``).
    var userData: UnsafeRawBufferPointer
    /// The event's own context, encoded (see ``EncodedEvent/contextBlob``).
    var context: UnsafeRawBufferPointer
    /// The flags, encoded (see ``EncodedEvent/flagsBlob``).
    var flags: UnsafeRawBufferPointer
    /// The shared context the event refers to, if any.
    var sharedContext: EncodedSharedContext?

    /// The event id.
    var id: UUID { UUID(uuid: uuid) }

    /// The same as ``EncodedEvent/approximateSize``.
    var approximateSize: Int {
        EncodedEvent.approximateSize(fieldBytes: category.count + name.count + action.count + userData.count
                                     + context.count + flags.count, sharedContext: sharedContext)
    }

    /// Whether the event carries any flag (its encoded flags are more than the empty `[]`).
    var isFlagged: Bool { flags.count > 2 }

    /// A copy that owns its bytes.
    func encoded() -> EncodedEvent {
        var event = EncodedEvent(
            id: id, timestampMilliseconds: timestampMilliseconds,
            category: String(decoding: category, as: UTF8.self), name: String(decoding: name, as: UTF8.self),
            action: String(decoding: action, as: UTF8.self),
            userDataBlob: Self.bytes(userData), contextBlob: Self.bytes(context), flagsBlob: Self.bytes(flags))
        event.sharedContext = sharedContext
        return event
    }

    /// The bytes as an array; the common `{}` and `[]` share one constant each (no allocation).
    @inline(__always)
    private static func bytes(_ buffer: UnsafeRawBufferPointer) -> [UInt8] {
        if buffer.count == 2 {
            if buffer[0] == UInt8(ascii: "{"), buffer[1] == UInt8(ascii: "}") { return EncodedEvent.emptyObject }
            if buffer[0] == UInt8(ascii: "["), buffer[1] == UInt8(ascii: "]") { return EncodedEvent.emptyArray }
        }
        return Array(buffer)
    }
}

/// An event the store can insert by borrowing its fields (see ``EventStore/insert(_:settingMetadata:now:)``).
protocol BorrowableEvent {
    /// The event id.
    var id: UUID { get }
    /// Calls `body` with the event's fields borrowed; they are valid only during the call unless
    /// ``fieldsOutliveBorrow``.
    func withBorrowed<Result>(_ body: (BorrowedEvent) throws -> Result) rethrows -> Result
    /// Whether the fields ``withBorrowed(_:)`` passes stay valid after it returns, as long as the
    /// event's owner does (true for a ``BorrowedEvent``, whose memory is its journal batch's).
    static var fieldsOutliveBorrow: Bool { get }
}

extension BorrowedEvent: BorrowableEvent {
    static var fieldsOutliveBorrow: Bool { true }

    @inline(__always)
    func withBorrowed<Result>(_ body: (BorrowedEvent) throws -> Result) rethrows -> Result { try body(self) }
}

extension EncodedEvent: BorrowableEvent {
    static var fieldsOutliveBorrow: Bool { false }

    /// Calls `body` with this event's fields borrowed from its storage.
    func withBorrowed<Result>(_ body: (BorrowedEvent) throws -> Result) rethrows -> Result {
        var category = category
        var name = name
        var action = action
        return try category.withUTF8 { category in
            try name.withUTF8 { name in
                try action.withUTF8 { action in
                    try userDataBlob.withUnsafeBytes { userData in
                        try contextBlob.withUnsafeBytes { context in
                            try flagsBlob.withUnsafeBytes { flags in
                                try body(BorrowedEvent(
                                    uuid: id.uuid, timestampMilliseconds: timestampMilliseconds,
                                    category: UnsafeRawBufferPointer(category), name: UnsafeRawBufferPointer(name),
                                    action: UnsafeRawBufferPointer(action), userData: userData, context: context,
                                    flags: flags, sharedContext: sharedContext))
                            }
                        }
                    }
                }
            }
        }
    }
}
