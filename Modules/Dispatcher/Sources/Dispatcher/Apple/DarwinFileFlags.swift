#if canImport(Darwin)
import Darwin

/// Reads whether a file is immutable or append-only on Darwin (`chflags uchg`, `uappnd` and their
/// system variants), which the Linux side asks with `ioctl(FS_IOC_GETFLAGS)`.
enum DarwinFileFlags {
    /// Whether the file at `path` refuses writes (immutable or append-only flags set).
    static func forbidsWrites(_ path: String) -> Bool {
        var info = stat()
        guard stat(path, &info) == 0 else { return false }
        let refusing = UInt32(UF_IMMUTABLE | UF_APPEND | SF_IMMUTABLE | SF_APPEND)
        return info.st_flags & refusing != 0
    }
}
#endif
