import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What a reader with no lock on a store file can compare to tell whether a writer touched it:
/// the main file's identity, size and modification time, and whether its write-ahead log exists.
///
/// SQLite reads a store whose log is absent without any lock (`immutable=1`, see
/// ``SQLiteDatabase/readOnlyURI(_:)``, so that the monitor creates no file). Every writer makes
/// the log before it changes the main file and changes the main file when it checkpoints, so a
/// reading made while this state stayed equal saw a file no writer was changing.
struct StoreFileState: Equatable {
    /// Device and inode of the main file.
    let identity: [UInt64]
    /// Size of the main file in bytes.
    let size: Int64
    /// Modification time of the main file, in nanoseconds.
    let modified: Int64
    /// Whether `<path>-wal` exists (a writer has the store open, or left it after a crash).
    let hasLog: Bool

    /// The state of the store at `path` now.
    init(path: String) {
        var info = stat()
        if stat(path, &info) == 0 {
            identity = [UInt64(info.st_dev), UInt64(info.st_ino)]
            size = Int64(info.st_size)
            #if canImport(Darwin)
            modified = Int64(info.st_mtimespec.tv_sec) * 1_000_000_000 + Int64(info.st_mtimespec.tv_nsec)
            #else
            modified = Int64(info.st_mtim.tv_sec) * 1_000_000_000 + Int64(info.st_mtim.tv_nsec)
            #endif
        } else {
            identity = []
            size = -1
            modified = -1
        }
        hasLog = access(path + "-wal", F_OK) == 0
    }
}
