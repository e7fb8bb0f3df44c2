#if canImport(Darwin)
import Darwin

/// Gives a new journal segment its disk blocks without writing them (Darwin): `F_PREALLOCATE`
/// reserves the space, contiguous when it can and anywhere otherwise, then `ftruncate` sets the
/// size; the file reads as zeros, as a new segment must. Writing zeroes instead would cost a full
/// segment of I/O per segment.
enum DarwinPreallocation {
    /// Reserves `bytes` for the empty file open as `descriptor` and sets its size.
    /// - Returns: 0, or the `errno` of the step that failed (`ENOSPC` when the disk is full).
    static func allocate(_ descriptor: Int32, bytes: Int) -> Int32 {
        var store = fstore_t(fst_flags: UInt32(F_ALLOCATECONTIG), fst_posmode: F_PEOFPOSMODE,
                             fst_offset: 0, fst_length: off_t(bytes), fst_bytesalloc: 0)
        if fcntl(descriptor, F_PREALLOCATE, &store) == -1 {
            store.fst_flags = UInt32(F_ALLOCATEALL)
            // A file system without preallocation (ENOTSUP) still gets its size below; a full
            // disk is reported now rather than as a fault when a page is written later.
            if fcntl(descriptor, F_PREALLOCATE, &store) == -1, errno == ENOSPC { return ENOSPC }
        }
        return ftruncate(descriptor, off_t(bytes)) == 0 ? 0 : errno
    }
}
#endif
