import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Which file a path names: its device and inode, and its size, read by one `stat`. A file
/// deleted, or replaced by another under its name, no longer matches the identity read when it
/// was opened (the check SQLite's documentation recommends for a database deleted while open).
struct FileIdentity: Equatable, Sendable {
    /// The device holding the file.
    var device: UInt64
    /// The file's inode on that device.
    var inode: UInt64
    /// The file's size in bytes when read.
    var size: Int

    /// The identity of the file at `path`, or `nil` when no file is there (or it cannot be read).
    init?(path: String) {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        device = UInt64(info.st_dev)
        inode = UInt64(info.st_ino)
        size = Int(info.st_size)
    }

    /// Whether `other` is the same file (size aside).
    func isSameFile(as other: FileIdentity?) -> Bool {
        guard let other else { return false }
        return device == other.device && inode == other.inode
    }
}
