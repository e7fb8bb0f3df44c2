import Foundation

/// The binary records of a journal segment.
///
/// ```
/// frame, format 3 (segment magic TRKJRNL3, the one written):
///   u32 marker "JREC" | u32 payload length | u32 sequence | u32 checksum | payload | zero padding to 8 bytes
/// frame, formats 1 and 2:  u32 payload length | u32 checksum | payload | zero padding to 8 bytes
/// payload, formats 2 and 3:
///   event:   u32 kind 1 | 16-byte id | i64 timestamp (ms) | u64 shared context hash (0: none) |
///            u32 × 6 lengths (category, name, action, userData, own context, flags) | the six byte strings
///   context: u32 kind 2 | u64 hash | the shared context's JSON object
///   seal:    u32 kind 3 | u64 previous segment's number | u32 its record count (format 3, first record)
/// payload, format 1 (TRKJRNL1, written by earlier versions, still read):
///   event:   16-byte id | i64 timestamp (ms) | u32 × 6 lengths | the six byte strings (full context)
/// ```
/// Little-endian. The marker and length are written last, so a record torn by process death has
/// a zero length or a checksum that does not match. A format 3 checksum covers payload, length
/// and sequence, seeded with the segment number (a recycled file's old records never pass); a
/// gap in sequences counts the records damage took. A shared context is written once per
/// segment, before the first event that refers to it.
enum JournalRecord {
    /// Frame header bytes of the records written (format 3: marker, length, sequence, checksum).
    static let frameHeader = 16
    /// Frame header bytes of formats 1 and 2 (length, checksum).
    static let legacyFrameHeader = 8
    /// The first word of every format 3 record ("JREC" little-endian), what replay looks for
    /// after damage.
    static let marker: UInt32 = 0x4345_524A

    /// Where the fields of an event record sit in one format.
    struct Layout {
        let kind: Int?
        let id: Int
        let timestamp: Int
        let contextHash: Int?
        let lengths: Int
        var fixed: Int { lengths + 6 * 4 }

        /// Format 1: no kind, no shared context.
        static let legacy = Layout(kind: nil, id: 0, timestamp: 16, contextHash: nil, lengths: 24)
        /// Format 2, the one written.
        static let current = Layout(kind: 0, id: 4, timestamp: 20, contextHash: 28, lengths: 36)
    }

    /// How the records of one segment are framed: its format, the checksum seed, and whether
    /// checksums are verified.
    struct Framing {
        /// 2 for the segments written now, 1 for those of earlier versions.
        let format: Int
        /// The checksum seed: the segment number in format 2, 0 in format 1.
        let salt: UInt64
        /// Whether checksums are verified (unset for records this process wrote and published).
        let checked: Bool
        /// The frame header bytes.
        var header: Int { format >= 3 ? frameHeader : legacyFrameHeader }

        init(format: Int, number: UInt64, checked: Bool = true) {
            self.format = format
            salt = format >= 2 ? number : 0
            self.checked = checked
        }
    }

    /// What a record holds.
    enum Entry {
        /// An event, borrowed from the mapping read.
        case event(BorrowedEvent)
        case context(EncodedSharedContext)
        /// A seal: how many records the previous segment holds (see ``SegmentSeal``).
        case seal(SegmentSeal)
    }

    static let eventKind: UInt32 = 1
    static let contextKind: UInt32 = 2
    /// Fixed payload bytes of a context record.
    static let contextFixedPayload = 4 + 8

    /// The payload bytes of `event`'s record.
    static func payloadSize(_ event: some JournalEventSource) -> Int {
        Layout.current.fixed + event.bytesSize
    }

    /// The payload bytes of a context record.
    static func payloadSize(_ context: EncodedSharedContext) -> Int { contextFixedPayload + context.json.count }

    /// The bytes a record of `payload` bytes occupies, padding included, with `header` frame
    /// header bytes (the written format's by default).
    static func frameSize(payload: Int, header: Int = frameHeader) -> Int { (header + payload + 7) & ~7 }

    /// Writes the record for `event` (whose payload is `payload` bytes) at `base`.
    ///
    /// Straight-line code with no capturing closures: this runs on the sender's thread, and a
    /// closure capturing mutable locals costs a dynamic exclusivity check per call.
    static func write(_ event: some JournalEventSource, payload: Int, to base: UnsafeMutableRawPointer, salt: UInt64, sequence: UInt32) {
        let layout = Layout.current
        let body = base + frameHeader
        body.storeBytes(of: eventKind.littleEndian, as: UInt32.self)
        body.storeBytes(of: event.id.uuid, toByteOffset: layout.id, as: uuid_t.self)
        body.storeBytes(of: event.timestampMilliseconds.littleEndian, toByteOffset: layout.timestamp, as: Int64.self)
        body.storeBytes(of: (event.sharedContext?.hash ?? 0).littleEndian, toByteOffset: layout.contextHash ?? 0, as: UInt64.self)
        _ = event.writeBytes(at: body + layout.fixed, lengths: body + layout.lengths)
        seal(base, payload: payload, salt: salt, sequence: sequence)
    }

    /// Writes the record of a shared context (whose payload is `payload` bytes) at `base`.
    static func write(_ context: EncodedSharedContext, payload: Int, to base: UnsafeMutableRawPointer, salt: UInt64, sequence: UInt32) {
        let body = base + frameHeader
        body.storeBytes(of: contextKind.littleEndian, as: UInt32.self)
        body.storeBytes(of: context.hash.littleEndian, toByteOffset: 4, as: UInt64.self)
        context.json.withUnsafeBytes { json in
            if let start = json.baseAddress, json.count > 0 { (body + contextFixedPayload).copyMemory(from: start, byteCount: json.count) }
        }
        seal(base, payload: payload, salt: salt, sequence: sequence)
    }

    /// Writes the sequence and checksum, then the marker and length in one store: the record
    /// exists once they are there.
    static func seal(_ base: UnsafeMutableRawPointer, payload: Int, salt: UInt64, sequence: UInt32) {
        let checksum = Self.checksum(UnsafeRawBufferPointer(start: base + frameHeader, count: payload), salt: salt, sequence: sequence)
        base.storeBytes(of: sequence.littleEndian, toByteOffset: 8, as: UInt32.self)
        base.storeBytes(of: checksum.littleEndian, toByteOffset: 12, as: UInt32.self)
        base.storeBytes(of: (UInt64(marker) | UInt64(payload) << 32).littleEndian, as: UInt64.self)
    }

    /// Writes `source` at `cursor` and its count (a little-endian `UInt32`) at `length`; returns the end.
    @inline(__always)
    static func copy(_ source: UnsafeRawBufferPointer, into cursor: UnsafeMutableRawPointer, length: UnsafeMutableRawPointer) -> UnsafeMutableRawPointer {
        length.storeBytes(of: UInt32(source.count).littleEndian, as: UInt32.self)
        if let start = source.baseAddress, source.count > 0 { cursor.copyMemory(from: start, byteCount: source.count) }
        return cursor + source.count
    }

    /// The payload size and sequence of a valid record at `base` (marker, length and checksum
    /// checked, nothing decoded), or `nil` at a zero, torn or damaged record. Formats 1 and 2
    /// have no sequence (0). With `checked` unset, the checksum is not verified (records this
    /// process wrote and published).
    static func validFrame(at base: UnsafeRawPointer, available: Int, framing: Framing) -> (payload: Int, sequence: UInt32)? {
        let minimum = framing.format >= 2 ? contextFixedPayload : Layout.legacy.fixed
        let header = framing.header
        guard available >= header + minimum else { return nil }
        let lengthOffset = framing.format >= 3 ? 4 : 0
        if framing.format >= 3, UInt32(littleEndian: base.loadUnaligned(as: UInt32.self)) != marker { return nil }
        let payload = Int(UInt32(littleEndian: base.loadUnaligned(fromByteOffset: lengthOffset, as: UInt32.self)))
        guard payload >= minimum, header + payload <= available else { return nil }
        let sequence = framing.format >= 3 ? UInt32(littleEndian: base.loadUnaligned(fromByteOffset: 8, as: UInt32.self)) : 0
        guard framing.checked else { return (payload, sequence) }
        let stored = UInt32(littleEndian: base.loadUnaligned(fromByteOffset: header - 4, as: UInt32.self))
        let bytes = UnsafeRawBufferPointer(start: base + header, count: payload)
        let expected = framing.format >= 3 ? checksum(bytes, salt: framing.salt, sequence: sequence) : checksum(bytes, salt: framing.salt)
        guard stored == expected else { return nil }
        return (payload, sequence)
    }

    /// Reads the record at `base`, with `available` bytes before the end of valid data, in a
    /// segment framed as `framing`. A context record is added to `contexts`; an event refers to
    /// one found there.
    /// - Returns: the entry and the frame size, or `nil` at a zero, torn or damaged record (or an
    ///   event whose shared context is unknown).
    static func read(at base: UnsafeRawPointer, available: Int, framing: Framing,
                     contexts: inout [UInt64: EncodedSharedContext]) -> (entry: Entry, frame: Int)? {
        let layout = framing.format >= 2 ? Layout.current : Layout.legacy
        guard let payload = validFrame(at: base, available: available, framing: framing)?.payload else { return nil }
        let header = framing.header
        let body = base + header
        if layout.kind != nil {
            let kind = UInt32(littleEndian: body.loadUnaligned(as: UInt32.self))
            if kind == contextKind {
                let hash = UInt64(littleEndian: body.loadUnaligned(fromByteOffset: 4, as: UInt64.self))
                if let known = contexts[hash] { return (.context(known), frameSize(payload: payload, header: header)) }
                let context = EncodedSharedContext(json: Array(UnsafeRawBufferPointer(start: body + contextFixedPayload, count: payload - contextFixedPayload)))
                guard context.hash == hash else { return nil }
                contexts[hash] = context
                return (.context(context), frameSize(payload: payload, header: header))
            }
            if kind == sealKind {
                guard payload == sealPayload else { return nil }
                return (.seal(SegmentSeal(body)), frameSize(payload: payload, header: header))
            }
            guard kind == eventKind, payload >= layout.fixed else { return nil }
        }
        func length(_ slot: Int) -> Int {
            Int(UInt32(littleEndian: body.loadUnaligned(fromByteOffset: layout.lengths + 4 * slot, as: UInt32.self)))
        }
        let lengths = (length(0), length(1), length(2), length(3), length(4), length(5))
        let total = layout.fixed + lengths.0 + lengths.1 + lengths.2 + lengths.3 + lengths.4 + lengths.5
        guard total == payload else { return nil }
        var shared: EncodedSharedContext?
        if let offset = layout.contextHash {
            let hash = UInt64(littleEndian: body.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
            if hash != 0 {
                guard let known = contexts[hash] else { return nil }
                shared = known
            }
        }
        let uuid = body.loadUnaligned(fromByteOffset: layout.id, as: uuid_t.self)
        let timestamp = Int64(littleEndian: body.loadUnaligned(fromByteOffset: layout.timestamp, as: Int64.self))
        var cursor = body + layout.fixed
        func take(_ count: Int) -> UnsafeRawBufferPointer {
            defer { cursor += count }
            return UnsafeRawBufferPointer(start: cursor, count: count)
        }
        let event = BorrowedEvent(
            uuid: uuid,
            timestampMilliseconds: timestamp,
            category: take(lengths.0),
            name: take(lengths.1),
            action: take(lengths.2),
            userData: take(lengths.3),
            context: take(lengths.4),
            flags: take(lengths.5),
            sharedContext: shared
        )
        return (.event(event), frameSize(payload: payload, header: header))
    }

    /// Reads the records between `start` and `limit` of a mapped segment framed as `framing`: at most
    /// `maxRecords` events, context records collected into `contexts`, events before `emitFrom`
    /// (context records before a reader's position) left out.
    /// - Returns: the events, the offset after them, and whether reading stopped at a damaged record.
    static func readEvents(in base: UnsafeRawPointer, from start: Int, to limit: Int, framing: Framing, maxRecords: Int,
                           emitFrom: Int = 0, contexts: inout [UInt64: EncodedSharedContext]) -> (events: [EncodedEvent], next: Int, damaged: Bool) {
        var events: [EncodedEvent] = []
        events.reserveCapacity(min(maxRecords, 1_024))
        let result = readBorrowed(in: base, from: start, to: limit, framing: framing, maxRecords: maxRecords,
                                  emitFrom: emitFrom, contexts: &contexts) { events.append($0.encoded()) }
        return (events, result.next, result.damaged)
    }

    /// Like ``readEvents(in:from:to:framing:maxRecords:emitFrom:contexts:)``, handing each event to
    /// `emit` borrowed from the mapping (valid while the mapping is). Damage is stepped over in a
    /// checked segment (see ``JournalScan``, which counted it when the segment was opened).
    /// - Returns: the offset after the events, and whether reading stopped at a damaged record
    ///   it could not step over.
    @inline(__always)
    static func readBorrowed(in base: UnsafeRawPointer, from start: Int, to limit: Int, framing: Framing, maxRecords: Int,
                             emitFrom: Int = 0, contexts: inout [UInt64: EncodedSharedContext],
                             emit: (BorrowedEvent) -> Void) -> (next: Int, damaged: Bool) {
        var emitted = 0
        var position = start
        while emitted < maxRecords, position < limit {
            guard let (entry, frame) = read(at: base + position, available: limit - position, framing: framing, contexts: &contexts) else {
                // A whole record whose content cannot be used (an unknown shared context): step over it.
                if let valid = validFrame(at: base + position, available: limit - position, framing: framing) {
                    position += frameSize(payload: valid.payload, header: framing.header)
                    continue
                }
                // On to the next record that checks (by its marker and checksum; formats 1 and 2,
                // which have no marker, by their checksum alone).
                guard framing.checked,
                      let next = JournalScan.nextValid(in: base, from: position + 8, to: limit, framing: framing) else {
                    return (position, true)
                }
                position = next
                continue
            }
            if case .event(let event) = entry, position >= emitFrom {
                emit(event)
                emitted += 1
            }
            position += frame
        }
        return (position, false)
    }
}
