import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Opening the files the SDK creates without being turned against another file: never through
/// a symbolic link (`O_NOFOLLOW`), and only a regular file (a device, a FIFO, a socket or a
/// folder put in the way is refused before anything is changed). A local user who can write the
/// store's folder cannot make a later run (perhaps as root) truncate or change the mode of a
/// file of their choosing.
enum RegularFile {
    /// What is at `path` when it is not a regular file, or `nil` (a regular file, or nothing).
    /// Looks at the path itself, or with `followingLinks` at what a symbolic link points to.
    static func refusal(at path: String, followingLinks: Bool = false) -> String? {
        var info = stat()
        guard (followingLinks ? stat(path, &info) : lstat(path, &info)) == 0 else { return nil }
        return kind(info.st_mode)
    }

    /// Throws ``StoreError/cannotOpen(path:reason:errno:)`` when `path` exists and is not a
    /// regular file (a symbolic link included, unless `followingLinks`).
    static func require(_ path: String, followingLinks: Bool = false) throws(StoreError) {
        if let what = refusal(at: path, followingLinks: followingLinks) {
            throw .cannotOpen(path: path, reason: "\(what), not a regular file: refused, left untouched", errno: EINVAL)
        }
    }

    /// Opens `path` with `flags` (plus `O_NOFOLLOW`, `O_NONBLOCK` and `O_CLOEXEC`; with
    /// `O_CREAT`, a new file gets `mode`), and checks it is a regular file.
    /// - Returns: the descriptor, or why it cannot be used: `errno` (`ELOOP` for a symbolic
    ///   link, `EINVAL` for a file of another kind) and a readable reason.
    static func openFile(_ path: String, flags: Int32, mode: mode_t = FileProtection.fileMode) -> Result<Int32, OpenFailure> {
        let descriptor = open(path, flags | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC, mode)
        guard descriptor >= 0 else {
            let code = errno
            if code == ELOOP || code == EMLINK, refusal(at: path) != nil {
                return .failure(OpenFailure(errno: ELOOP, reason: "a symbolic link, not a regular file: refused"))
            }
            return .failure(OpenFailure(errno: code, reason: FileProtection.describe(code)))
        }
        var info = stat()
        guard fstat(descriptor, &info) == 0 else {
            let code = errno
            close(descriptor)
            return .failure(OpenFailure(errno: code, reason: FileProtection.describe(code)))
        }
        if let what = kind(info.st_mode) {
            close(descriptor)
            return .failure(OpenFailure(errno: EINVAL, reason: "\(what), not a regular file: refused"))
        }
        return .success(descriptor)
    }

    /// Why a file could not be opened.
    struct OpenFailure: Error {
        /// The system error number.
        let errno: Int32
        /// A readable reason.
        let reason: String
    }

    /// The kind of file `mode` names when it is not a regular file.
    private static func kind(_ mode: mode_t) -> String? {
        switch mode & S_IFMT {
        case S_IFREG: nil
        case S_IFLNK: "a symbolic link"
        case S_IFDIR: "a folder"
        case S_IFCHR, S_IFBLK: "a device"
        case S_IFIFO: "a FIFO"
        case S_IFSOCK: "a socket"
        default: "a special file"
        }
    }
}
