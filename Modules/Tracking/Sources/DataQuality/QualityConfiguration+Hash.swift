import Foundation
import Tracking

extension QualityConfiguration {
    /// A short, stable fingerprint of a configuration, so an analyst can tell which configuration
    /// produced an event: the first 12 hex digits of the SHA-256 of `value` encoded as JSON with
    /// sorted keys. The same configuration always gives the same hash, on every platform.
    /// - Returns: the hash, or `unencodable` when the value cannot be encoded.
    public static func hash(of value: some Encodable) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        guard let data = try? encoder.encode(value) else { return "unencodable" }
        return fingerprint(data)
    }

    /// ``hash(of:)`` of a value already written out as a tree: the first 12 hex digits of the
    /// SHA-256 of its compact JSON text with sorted keys. For a tree that mirrors a value's
    /// `encode(to:)`, with whole numbers as `.int`, it is the same hash, without `JSONEncoder`,
    /// whose first use in a process costs more than the rest of `Analytics`' start.
    public static func hash(ofTree value: UserDataValue) -> String {
        fingerprint(JSONText.encode(value).utf8)
    }

    /// The first 12 hex digits of the SHA-256 of `bytes`.
    private static func fingerprint(_ bytes: some Sequence<UInt8>) -> String {
        String(SHA256Digest.hex(of: SHA256Digest.digest(bytes)).prefix(12))
    }
}
