import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

// The calls a segment makes that differ by platform: giving a new file its blocks, and handing
// the mapping's pages back to the system.
extension JournalSegment {
    /// Gives a new segment file its `capacity` bytes, reading as zeros: `posix_fallocate` on
    /// Linux, `F_PREALLOCATE` and `ftruncate` on Darwin (see `DarwinPreallocation`), else zeroes written.
    static func allocate(_ descriptor: Int32, capacity: Int, path: String) throws(JournalError) {
        #if canImport(Glibc)
        let result = posix_fallocate(descriptor, 0, off_t(capacity))
        guard result == 0 else { throw .io(path: path, operation: "allocate", errno: result) }
        #elseif canImport(Darwin)
        let result = DarwinPreallocation.allocate(descriptor, bytes: capacity)
        guard result == 0 else { throw .io(path: path, operation: "allocate", errno: result) }
        #else
        let zeros = [UInt8](repeating: 0, count: 65_536)
        var offset = 0
        while offset < capacity {
            let count = min(zeros.count, capacity - offset)
            let written = zeros.withUnsafeBytes { pwrite(descriptor, $0.baseAddress, count, off_t(offset)) }
            guard written == count else { throw .io(path: path, operation: "allocate", errno: written < 0 ? errno : ENOSPC) }
            offset += count
        }
        #endif
    }

    /// Hands back the whole pages within `range` (page-aligned below, see ``releasePages(below:)``).
    func handBack(_ range: Range<Int>) {
        let start = range.lowerBound / Self.pageSize * Self.pageSize
        let end = min(range.upperBound, capacity) / Self.pageSize * Self.pageSize
        guard end > start else { return }
        #if os(Linux)
        _ = madvise(base + start, end - start, MADV_DONTNEED)
        #elseif canImport(Darwin)
        DarwinPageRelease.release(base + start, length: end - start)
        #endif
    }
}
