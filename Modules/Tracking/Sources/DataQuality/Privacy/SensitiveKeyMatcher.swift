import Tracking

/// Tells whether a key is one of a set of sensitive keys, in any case, without allocating for
/// the usual ASCII key: its bytes are compared, folded to lowercase, with the sensitive keys of
/// the same length. Other keys are lowercased and looked up.
struct SensitiveKeyMatcher: Sendable {
    /// The sensitive keys, lowercased.
    let keys: Set<String>
    /// The ASCII ones among them, as bytes.
    private let asciiKeys: [[UInt8]]
    /// The lengths of the ASCII sensitive keys.
    private let asciiLengths: LengthMask
    /// This matcher's own id, never 0, shared by its copies only: what a
    /// ``Tracking/UserDataDigest`` screened by it names, so that only a stage matching with this
    /// very matcher (the same keys) relies on the screen.
    let id: UInt64

    /// The last id given to a matcher.
    private static let lastID = LockedValue<UInt64>(0)

    /// A matcher for `keys`, any case.
    init(_ keys: some Sequence<String>) {
        id = Self.lastID.withLock { last in
            last &+= 1
            return last
        }
        self.keys = Set(keys.map { $0.lowercased() })
        asciiKeys = self.keys.filter { $0.utf8.allSatisfy { $0 < 0x80 } }.map { Array($0.utf8) }
        asciiLengths = LengthMask(asciiKeys.map(\.count))
    }

    /// Whether `key` is sensitive.
    func matches(_ key: String) -> Bool {
        let ascii: Bool? = key.utf8.withContiguousStorageIfAvailable { bytes in
            guard bytes.allSatisfy({ $0 < 0x80 }) else { return nil }
            guard asciiLengths.mayContain(length: bytes.count) else { return false }
            return asciiKeys.contains { candidate in
                candidate.count == bytes.count && zip(candidate, bytes).allSatisfy { $0 == Self.lowercase($1) }
            }
        } ?? nil
        if let ascii { return ascii }
        // Not ASCII (a non-ASCII letter may lowercase to an ASCII one), or not contiguous.
        return keys.contains(key) || keys.contains(key.lowercased())
    }

    private static func lowercase(_ byte: UInt8) -> UInt8 { byte >= 0x41 && byte <= 0x5A ? byte | 0x20 : byte }
}
