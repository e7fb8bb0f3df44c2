import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

// Noticing that a segment's file changed under the mapping: a store into a shared mapping whose
// file was cut short, or made immutable, ends the process with SIGBUS, so appends must leave such
// a segment before they touch it.
extension JournalSegment {
    /// What happened to a segment's file while in use.
    enum FileFault: Equatable {
        /// Deleted, or replaced by another file under its name (the mapping stays valid: its
        /// records are read from memory, but no longer survive the process).
        case removed
        /// Cut short to `size` bytes: the mapping's pages past it are gone.
        case cut(size: Int)
        /// Made immutable or append-only: a store into a page written back would fault.
        case unwritable
    }

    /// Checks the file under the mapping: one `stat` (deleted, replaced, cut short), then on
    /// Linux one `open`, `ioctl(FS_IOC_GETFLAGS)` and `close` (immutable or append-only), on
    /// Darwin the flags of that `stat`.
    /// - Returns: the fault, or `nil` when the file is as created (or was not created here).
    func checkFile() -> FileFault? {
        guard let identity else { return nil }
        guard let current = FileIdentity(path: path), identity.isSameFile(as: current) else { return .removed }
        if current.size < capacity { return .cut(size: current.size) }
        return Self.forbidsWrites(path) ? .unwritable : nil
    }

    /// Whether the file at `path` is immutable or append-only, so the kernel refuses writes through a mapping.
    static func forbidsWrites(_ path: String) -> Bool {
        #if os(Linux)
        let descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard descriptor >= 0 else { return false }
        defer { close(descriptor) }
        var flags: Int = 0
        guard ioctl(descriptor, fileFlagsRequest, &flags) == 0 else { return false }
        return flags & (immutableFlag | appendOnlyFlag) != 0
        #elseif canImport(Darwin)
        return DarwinFileFlags.forbidsWrites(path)
        #else
        return false
        #endif
    }

    #if os(Linux)
    /// `FS_IOC_GETFLAGS` (`_IOR('f', 1, long)`), which Glibc's module map does not export.
    private static let fileFlagsRequest: UInt = 0x8008_6601
    /// `FS_IMMUTABLE_FL` and `FS_APPEND_FL` of `<linux/fs.h>`.
    private static let immutableFlag = 0x10
    private static let appendOnlyFlag = 0x20
    #endif

    /// Gives a file cut short its full size back (reading as zeros past the cut), so that no
    /// access to the mapping faults any more.
    /// - Returns: whether it is whole again.
    func restoreSize() -> Bool {
        let descriptor = open(path, O_RDWR | O_CLOEXEC | O_NONBLOCK)
        guard descriptor >= 0 else { return false }
        defer { close(descriptor) }
        var info = stat()
        guard fstat(descriptor, &info) == 0, identity?.inode == UInt64(info.st_ino) else { return false }
        return ftruncate(descriptor, off_t(capacity)) == 0
    }

    /// How many records the consumer has not stored (from ``storedEnd``) lie past `size`, where
    /// the file was cut: they are lost. Reads only bytes below the cut.
    /// - Returns: that count, and the end of the records not stored yet that are intact.
    func recordsLost(cutAt size: Int) -> (lost: Int, intactEnd: Int) {
        let from = max(storedEnd, Self.headerSize)
        guard from < end else { return (0, end) }
        let limit = min(size, end)
        let framing = JournalRecord.Framing(format: format, number: number, checked: false)
        var offset = from
        var intact = 0
        while offset < limit, let frame = JournalRecord.validFrame(at: base + offset, available: limit - offset, framing: framing) {
            offset += JournalRecord.frameSize(payload: frame.payload, header: framing.header)
            intact += 1
        }
        return (max(0, Int(nextSequence) - Int(storedSequence) - intact), offset)
    }

    /// The sequence number of the record at `offset` (format 3; 0 for earlier formats).
    func sequence(at offset: Int) -> UInt32 {
        guard format >= 3, offset + JournalRecord.frameHeader <= capacity else { return 0 }
        return UInt32(littleEndian: base.loadUnaligned(fromByteOffset: offset + 8, as: UInt32.self))
    }
}
