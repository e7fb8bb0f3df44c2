import Foundation

/// An event id as a set of seen ids holds it: equal when the ids are, hashed by its last 64
/// bits only, which in a version 7 id are random (hashing all 16 bytes costs twice as much).
struct SeenID: Hashable {
    private let high: UInt64
    private let low: UInt64

    /// The key of `id`.
    init(_ id: UUID) {
        let bytes = id.uuid
        (high, low) = withUnsafeBytes(of: bytes) { raw in
            (raw.loadUnaligned(as: UInt64.self), raw.loadUnaligned(fromByteOffset: 8, as: UInt64.self))
        }
    }

    /// Feeds the random half only.
    func hash(into hasher: inout Hasher) { hasher.combine(low) }
}
