import Foundation

/// An event id as the duplicate memory holds it: two 64-bit halves, compared in full, filed
/// under its last 64 bits (``key``), which in a version 7 id are random.
struct SeenID: Equatable {
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
}
