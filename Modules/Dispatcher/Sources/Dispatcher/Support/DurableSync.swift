#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Flushes a file to stable storage where a doc comment promises it survives a power loss:
/// `fsync`, and on Darwin `fcntl(F_FULLFSYNC)`, since there `fsync` leaves the data in the
/// drive's cache (see `DarwinFullSync`).
enum DurableSync {
    /// Flushes `descriptor`. - Returns: 0, or -1 with `errno` set.
    static func flush(_ descriptor: Int32) -> Int32 {
        #if canImport(Darwin)
        DarwinFullSync.flush(descriptor)
        #else
        fsync(descriptor)
        #endif
    }
}
