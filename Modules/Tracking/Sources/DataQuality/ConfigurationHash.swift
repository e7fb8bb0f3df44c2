import Foundation

/// A short, stable fingerprint of a configuration, so an analyst can tell which configuration
/// produced an event.
public enum ConfigurationHash {
    /// The first 12 hex digits of the SHA-256 of `value` encoded as JSON with sorted keys.
    /// The same configuration always gives the same hash, on every platform.
    /// - Returns: the hash, or `unencodable` when the value cannot be encoded.
    public static func of(_ value: some Encodable) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        guard let data = try? encoder.encode(value) else { return "unencodable" }
        return String(SHA256.hex(of: SHA256.digest(data)).prefix(12))
    }
}
