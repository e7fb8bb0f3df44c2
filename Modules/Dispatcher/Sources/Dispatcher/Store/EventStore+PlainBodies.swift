import Foundation

// The collector's refusal of compressed bodies, kept in the `meta` table across runs.
extension EventStore {
    /// The `meta` key: a `_` key, which a purge keeps (it says nothing about the user).
    static let plainBodiesKey = "_store.plain_bodies_endpoint"

    /// Records that the collector at `endpoint` refused compressed bodies. The endpoint is
    /// stored as a digest, so that credentials in a URL never reach the file.
    func rememberPlainBodies(for endpoint: String) throws {
        try setMetadata(Self.plainBodiesKey, Self.endpointDigest(endpoint))
    }

    /// Whether ``rememberPlainBodies(for:)`` was last called for `endpoint`.
    func sendsPlainBodies(to endpoint: String) throws -> Bool {
        try metadata(Self.plainBodiesKey) == Self.endpointDigest(endpoint)
    }

    /// FNV-1a (64 bits) of the endpoint's UTF-8, in hex: stable across runs and platforms.
    static func endpointDigest(_ endpoint: String) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in endpoint.utf8 {
            hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01b3
        }
        return String(hash, radix: 16)
    }
}
