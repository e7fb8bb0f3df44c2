import Foundation
import Tracking

/// Sizes the bench reports: a store's bytes on disk, and the JSON a userData encodes to.
enum StoredSize {
    /// The bytes a store occupies on disk: the database file plus its write-ahead log.
    static func fileBytes(_ storePath: String) -> Int {
        ["", "-wal"].reduce(0) { total, suffix in
            let attributes = try? FileManager.default.attributesOfItem(atPath: storePath + suffix)
            return total + ((attributes?[.size] as? NSNumber)?.intValue ?? 0)
        }
    }

    /// The length of `userData` as compact JSON, as the store keeps it.
    static func jsonBytes(_ userData: UserData) throws -> Int {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.withoutEscapingSlashes]
        return try encoder.encode(userData).count
    }
}
