#if canImport(Darwin)
import Darwin

/// Hands the pages of a shared file mapping back to the system on Darwin, as `MADV_DONTNEED`
/// does on Linux.
///
/// On Darwin `MADV_DONTNEED` keeps the pages' contents and only lowers their priority, and a
/// dirty page cannot be reclaimed before it is written back; so `msync(MS_ASYNC)` first starts
/// that write-back, then the pages are marked reclaimable. `MADV_FREE` and `MADV_FREE_REUSABLE`
/// are not used: they are for anonymous memory and may throw away the bytes, which here are the
/// journal's records.
enum DarwinPageRelease {
    /// Releases `length` bytes (whole pages) of the mapping at `address`.
    static func release(_ address: UnsafeMutableRawPointer, length: Int) {
        _ = msync(address, length, MS_ASYNC)
        _ = madvise(address, length, MADV_DONTNEED)
    }
}
#endif
