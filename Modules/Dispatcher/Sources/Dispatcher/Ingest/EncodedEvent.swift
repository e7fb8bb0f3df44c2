import Foundation
import Tracking

/// An event in the form the Dispatcher persists and delivers: scalar fields plus the
/// userData, context and flags already encoded.
///
/// Between the sender and the store the three are in the compact binary form of ``BinaryValue``
/// (``init(journaling:)``: no JSON on the sender's thread, nor on the ingest writer's); the
/// store keeps them so, and every event read back (``readable()``, the store's rows) has them
/// as compact JSON, which wire encoders splice into their payloads without decoding again.
/// The empty userData, context and flags are always the JSON constants `{}` and `[]`.
///
/// Between the sender and the store an event may carry its shared context by reference
/// (``sharedContext``, encoded once per ``Tracking/SharedContext`` instance) with only its own
/// context in ``contextBlob``; every event read back from the store or a journal for delivery,
/// the monitor or queries has the full, merged context in ``contextBlob`` and no reference.
package struct EncodedEvent: Sendable, Equatable {
    /// The event id (UUIDv7), the delivery idempotency key.
    package var id: UUID
    /// When the event was sent, in milliseconds since 1970.
    package var timestampMilliseconds: Int64
    /// The category.
    package var category: String
    /// The name.
    package var name: String
    /// The action.
    package var action: String
    /// `userData` as a JSON object (or, until read back, as a ``BinaryValue`` blob).
    package var userDataBlob: [UInt8]
    /// `context` as a JSON object (or, until read back, as a ``BinaryValue`` blob): the full
    /// context, or only the event's own when ``sharedContext`` is set.
    package var contextBlob: [UInt8]
    /// The shared context the event refers to, while it travels to the store; `nil` once read back.
    package var sharedContext: EncodedSharedContext?
    /// `flags` as a JSON array of `{"code":…,"detail":…}` objects (or, until read back, as a
    /// ``BinaryValue`` blob of the same).
    package var flagsBlob: [UInt8]

    /// Encodes an event as JSON: the readable form (tests, fixtures, anything off the hot path).
    ///
    /// Arrays and objects nested deeper than ``Tracking/UserDataValue/maximumDepth`` in userData
    /// or context are written as the placeholder and the event flagged
    /// ``Tracking/EventFlag/userDataTruncated`` or ``Tracking/EventFlag/contextTruncated``, so
    /// an event built by hand is as safe to persist and deliver as one from an `EventReporter`.
    package init(_ event: TrackedEvent) {
        self.init(event, userData: Self.json, flags: Self.flagsJSON)
    }

    /// Encodes an event for the journal, in the binary form of ``BinaryValue``, cut and flagged
    /// exactly as ``init(_:)`` cuts and flags. Runs on the sender's thread, so it does as little
    /// as it can: one exactly sized allocation per non-empty part, no JSON.
    package init(journaling event: TrackedEvent) {
        self.init(event, userData: BinaryValueWriter.object, flags: BinaryValueWriter.flags)
    }

    /// Encodes `event` with `encode` for userData and its own context and `encodeFlags` for flags;
    /// empty ones share the `{}` and `[]` constants.
    @inline(__always)
    private init(_ event: TrackedEvent, userData encode: (UserData) -> (bytes: [UInt8], truncated: Bool),
                 flags encodeFlags: ([EventFlag]) -> [UInt8]) {
        id = event.id
        timestampMilliseconds = JSONText.milliseconds(event.timestamp)
        category = event.category
        name = event.name
        action = event.action
        let userData = event.userData.isEmpty ? (bytes: Self.emptyObject, truncated: false) : encode(event.userData)
        // Never `event.context`: reading it merges. The shared part is encoded once per instance.
        let shared = EncodedSharedContext.reference(of: event)
        var context = event.eventContext.isEmpty ? (bytes: Self.emptyObject, truncated: false) : encode(event.eventContext)
        context.truncated = context.truncated || shared.truncated
        userDataBlob = userData.bytes
        contextBlob = context.bytes
        sharedContext = shared.context
        var flags = event.flags
        if userData.truncated, !flags.contains(.userDataTruncated) { flags.append(.userDataTruncated) }
        if context.truncated, !flags.contains(.contextTruncated) { flags.append(.contextTruncated) }
        flagsBlob = encodeFlags(flags)
    }

    /// `{}`, shared.
    static let emptyObject: [UInt8] = Array("{}".utf8)
    /// `[]`, shared.
    static let emptyArray: [UInt8] = Array("[]".utf8)

    /// The values as a JSON object, and whether anything was nested too deep and cut.
    static func json(_ values: UserData) -> (bytes: [UInt8], truncated: Bool) {
        guard !values.isEmpty else { return (emptyObject, false) }
        var writer = JSONWriter(capacity: 32 * values.count + 16)
        writer.object(values, sortedKeys: false)
        return (writer.bytes, writer.truncated)
    }

    /// Flags as the store and the journal keep them: `[{"code":…,"detail":…}]`.
    static func flagsJSON(_ flags: [EventFlag]) -> [UInt8] {
        guard !flags.isEmpty else { return emptyArray }
        var writer = JSONWriter(capacity: 64)
        writer.raw("[")
        for (index, flag) in flags.enumerated() {
            if index > 0 { writer.raw(",") }
            writer.raw("{\"code\":")
            writer.string(flag.code)
            if let detail = flag.detail {
                writer.raw(",\"detail\":")
                writer.string(detail)
            }
            writer.raw("}")
        }
        writer.raw("]")
        return writer.bytes
    }

    /// Creates an encoded event from its parts (as read back from a store or journal).
    package init(
        id: UUID, timestampMilliseconds: Int64, category: String, name: String, action: String,
        userDataBlob: [UInt8], contextBlob: [UInt8], flagsBlob: [UInt8]
    ) {
        self.id = id
        self.timestampMilliseconds = timestampMilliseconds
        self.category = category
        self.name = name
        self.action = action
        self.userDataBlob = userDataBlob
        self.contextBlob = contextBlob
        self.flagsBlob = flagsBlob
        sharedContext = nil
    }

    /// This event as readers get it: userData, context and flags as JSON (transcoded from the
    /// binary form), its shared context merged into ``contextBlob`` (per
    /// ``Tracking/SharedContext/merge(_:_:)``) and no reference.
    /// - Throws: ``BinaryValueError`` when a binary part is malformed.
    package func readable() throws(BinaryValueError) -> EncodedEvent {
        var readable = self
        readable.userDataBlob = try BinaryValue.json(userDataBlob)
        readable.contextBlob = try BinaryValue.json(contextBlob)
        readable.flagsBlob = try BinaryValue.json(flagsBlob)
        guard let shared = sharedContext else { return readable }
        readable.contextBlob = ContextMerge.merge(shared: shared.json, own: readable.contextBlob)
        readable.sharedContext = nil
        return readable
    }

    /// The kind of call the event records, derived from ``category`` (see ``Tracking/EventKind``).
    package var kind: EventKind { EventKind(category: category) }

    /// The event's timestamp.
    package var timestamp: Date { Date(timeIntervalSince1970: Double(timestampMilliseconds) / 1000) }

    /// The bytes this event occupies in a payload, roughly: used for byte limits.
    package var approximateSize: Int {
        Self.approximateSize(fieldBytes: category.utf8.count + name.utf8.count + action.utf8.count
                             + userDataBlob.count + contextBlob.count + flagsBlob.count, sharedContext: sharedContext)
    }

    /// The approximate payload size of an event whose texts and encoded parts total `fieldBytes`.
    static func approximateSize(fieldBytes: Int, sharedContext: EncodedSharedContext?) -> Int {
        64 + fieldBytes + (sharedContext?.json.count ?? 0)
    }

    /// Decodes the event back into a ``Tracking/TrackedEvent`` (for the monitor and tests).
    package func decoded() throws -> TrackedEvent {
        guard sharedContext == nil, !BinaryValue.isBinary(userDataBlob), !BinaryValue.isBinary(contextBlob),
              !BinaryValue.isBinary(flagsBlob) else { return try readable().decoded() }
        let decoder = JSONDecoder()
        return TrackedEvent(
            id: id,
            timestamp: timestamp,
            category: category,
            name: name,
            action: action,
            userData: try decoder.decode(UserData.self, from: Data(userDataBlob)),
            context: try decoder.decode(UserData.self, from: Data(contextBlob)),
            flags: try decoder.decode([EventFlag].self, from: Data(flagsBlob))
        )
    }

    /// The flag codes, decoded from ``flagsBlob``; empty when it cannot be read.
    package var flagCodes: [String] { (Self.decodedFlags(flagsBlob) ?? []).map(\.description) }

    /// Encoded flags (binary or JSON) decoded; nil when they cannot be read.
    static func decodedFlags(_ encoded: [UInt8]) -> [EventFlag]? {
        guard let json = try? BinaryValue.json(encoded) else { return nil }
        return try? JSONDecoder().decode([EventFlag].self, from: Data(json))
    }
}
