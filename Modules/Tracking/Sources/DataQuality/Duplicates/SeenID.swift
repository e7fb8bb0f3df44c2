import Foundation

/// An event id as the duplicate memory holds it: two 64-bit halves, compared in full, filed
/// under its last 64 bits (``key``), which in a version 7 id are random.
struct SeenID: Equatable, Sendable {
    private let high: UInt64
    private let low: UInt64

    /// The key of `id`.
    init(_ id: UUID) {
        let bytes = id.uuid
        (high, low) = withUnsafeBytes(of: bytes) { raw in
            (raw.loadUnaligned(as: UInt64.self), raw.loadUnaligned(fromByteOffset: 8, as: UInt64.self))
        }
    }

    /// The random half, to file the id under.
    var key: UInt64 { low }

    /// Whether this id comes before `other` in the order of their bytes (for version 7 ids,
    /// the order they were made in).
    func precedes(_ other: SeenID) -> Bool {
        let (mine, theirs) = (UInt64(bigEndian: high), UInt64(bigEndian: other.high))
        return mine != theirs ? mine < theirs : UInt64(bigEndian: low) < UInt64(bigEndian: other.low)
    }
}
