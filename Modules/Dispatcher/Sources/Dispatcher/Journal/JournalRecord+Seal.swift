// Seal records: the first record of a segment that follows another one this process wrote, so
// that replay knows how many records that one should hold, damaged or cut-off last ones included.
extension JournalRecord {
    /// The kind of a seal record.
    static let sealKind: UInt32 = 3
    /// Payload bytes of a seal record: kind, the previous segment's number, its record count.
    static let sealPayload = 4 + 8 + 4

    /// What a seal record says: segment `previous` holds `records` records (sequences 0 to `records - 1`).
    struct SegmentSeal: Equatable {
        let previous: UInt64
        let records: UInt32

        init(previous: UInt64, records: UInt32) {
            self.previous = previous
            self.records = records
        }

        /// Reads the seal in the payload at `body`.
        init(_ body: UnsafeRawPointer) {
            previous = UInt64(littleEndian: body.loadUnaligned(fromByteOffset: 4, as: UInt64.self))
            records = UInt32(littleEndian: body.loadUnaligned(fromByteOffset: 12, as: UInt32.self))
        }
    }

    /// Writes the seal record `segmentSeal` at `base`.
    static func write(_ segmentSeal: SegmentSeal, to base: UnsafeMutableRawPointer, salt: UInt64, sequence: UInt32) {
        let body = base + frameHeader
        body.storeBytes(of: sealKind.littleEndian, as: UInt32.self)
        body.storeBytes(of: segmentSeal.previous.littleEndian, toByteOffset: 4, as: UInt64.self)
        body.storeBytes(of: segmentSeal.records.littleEndian, toByteOffset: 12, as: UInt32.self)
        seal(base, payload: sealPayload, salt: salt, sequence: sequence)
    }
}
