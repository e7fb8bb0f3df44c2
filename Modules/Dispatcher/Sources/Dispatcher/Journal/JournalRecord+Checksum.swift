// The checksums of journal records: a 64-bit multiply–xorshift hash over 8-byte words,
// computed by the sender right after copying the record (its bytes are in the cache), about a
// nanosecond per 8 bytes; a table-driven CRC32C in software reads a table per byte and is
// several times slower, and hardware CRC instructions are not reachable portably from Swift.
extension JournalRecord {
    /// A fast 32-bit checksum over 8-byte words (multiply–xorshift, see ``hash64(_:seed:)``),
    /// seeded with the length and `salt`: formats 1 and 2.
    static func checksum(_ bytes: UnsafeRawBufferPointer, salt: UInt64 = 0) -> UInt32 {
        UInt32(truncatingIfNeeded: hash64(bytes, seed: salt))
    }

    /// The format 3 checksum: ``hash64(_:seed:)`` seeded with the length, `salt` (the segment
    /// number) and the record's `sequence`.
    @inline(__always)
    static func checksum(_ bytes: UnsafeRawBufferPointer, salt: UInt64, sequence: UInt32) -> UInt32 {
        UInt32(truncatingIfNeeded: hash64(bytes, seed: salt ^ (UInt64(sequence) &* 0x9FB2_1C65_1E98_DF25)))
    }

    /// A fast 64-bit hash over 8-byte words (multiply–xorshift), seeded with the length and
    /// `seed`; never 0.
    static func hash64(_ bytes: UnsafeRawBufferPointer, seed: UInt64 = 0) -> UInt64 {
        guard let base = bytes.baseAddress else { return 0x5EED }
        let count = bytes.count
        var hash: UInt64 = 0x9E37_79B9_7F4A_7C15 ^ UInt64(count) ^ (seed &* 0xD6E8_FEB8_6659_FD93)
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
        return hash == 0 ? 0x5EED : hash
    }
}
