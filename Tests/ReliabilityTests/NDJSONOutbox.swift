import Foundation

/// Reads what an `NDJSONFileDestination` delivered: one JSON object per line.
enum NDJSONOutbox {
    /// How many times each event id was delivered to `file` (empty when nothing was).
    static func deliveries(in file: URL) throws -> [String: Int] {
        guard FileManager.default.fileExists(atPath: file.path) else { return [:] }
        var counts: [String: Int] = [:]
        for line in try String(contentsOf: file, encoding: .utf8).split(separator: "\n") {
            let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
            if let id = object?["id"] as? String { counts[id.lowercased(), default: 0] += 1 }
        }
        return counts
    }
}
