import Foundation

/// The file locks the kernel lists in `/proc/locks` (Linux) on given files: `flock` and `fcntl`
/// locks alike, whoever holds them.
enum HeldFileLocks {
    /// The locks held on `paths` (missing files have none), one line of `/proc/locks` each.
    static func on(_ paths: [String]) throws -> [String] {
        let inodes = Set(paths.compactMap { path -> UInt64? in
            guard let attributes = try? FileManager.default.attributesOfItem(atPath: path) else { return nil }
            return (attributes[.systemFileNumber] as? NSNumber)?.uint64Value
        })
        let table = try String(contentsOfFile: "/proc/locks", encoding: .utf8)
        return table.split(separator: "\n").map(String.init).filter { line in
            // `1: POSIX  ADVISORY  WRITE 4242 08:01:123456 0 EOF`: the sixth field ends with the inode.
            let fields = line.split(whereSeparator: { $0 == " " })
            let device = fields.first { $0.filter { $0 == ":" }.count == 2 }
            guard let inode = device?.split(separator: ":").last.flatMap({ UInt64($0) }) else { return false }
            return inodes.contains(inode)
        }
    }

    /// The store's files: the database, its `-wal` and `-shm`, and the writer's lock file.
    static func storeFiles(_ storePath: String) -> [String] {
        [storePath, storePath + "-wal", storePath + "-shm", storePath + ".lock"]
    }
}
