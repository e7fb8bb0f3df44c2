#if canImport(Darwin)
import Darwin

/// Flushes a file to stable storage on Darwin, where `fsync` only hands the data to the drive,
/// which may keep it in its cache past a power loss: `fcntl(F_FULLFSYNC)` asks the drive to write
/// its cache too. Falls back to `fsync` where the file system does not support it.
enum DarwinFullSync {
    /// Flushes `descriptor`. - Returns: 0, or -1 with `errno` set.
    static func flush(_ descriptor: Int32) -> Int32 {
        fcntl(descriptor, F_FULLFSYNC) == 0 ? 0 : fsync(descriptor)
    }
}
#endif
