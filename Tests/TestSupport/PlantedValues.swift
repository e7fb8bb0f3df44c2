import Foundation

/// How many times `marker` occurs, as raw bytes, in the files under `folder` (all depths): what
/// `grep -a -c` would find in a store, its log and its journal folder.
public func occurrences(of marker: String, under folder: URL) -> Int {
    let needle = Data(marker.utf8)
    let files = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: nil)?.allObjects as? [URL] ?? []
    return files.reduce(0) { total, file in
        guard var data = try? Data(contentsOf: file) else { return total }
        var count = 0
        while let range = data.range(of: needle) {
            count += 1
            data = data[range.upperBound...]
        }
        return total + count
    }
}
